package convert

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatlint/chatlint/engine/internal/py"
)

// Session is one session file found under the logs folder.
type Session struct {
	Path string // as printed: the logs folder joined with the relative path
	Rel  []string
	// DirDate is the date named by the first folder under the logs folder
	// (logs/2026-01-13/x.jsonl), "" when there is none.
	DirDate string
}

// discover lists every *.jsonl file below root (suffix case-sensitive,
// symbolic links to files followed, to folders not), sorted by path
// components: a/x < a-b/x < a.b/x, and B/ < a/. Folders it cannot read are
// returned as errors after the files it could.
func discover(root string) ([]Session, []error) {
	var out []Session
	var errs []error
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != root {
				errs = append(errs, err)
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		s := Session{Path: pyJoin(root, parts), Rel: parts}
		if len(parts) >= 2 {
			s.DirDate = isoDate(parts[0])
		}
		out = append(out, s)
		return nil
	})
	slices.SortFunc(out, func(a, b Session) int { return slices.Compare(a.Rel, b.Rel) })
	return out, errs
}

func pyJoin(root string, parts []string) string {
	r := py.Path(root)
	if r == "." {
		return strings.Join(parts, "/")
	}
	return strings.TrimSuffix(r, "/") + "/" + strings.Join(parts, "/")
}

var (
	isoCalendar = regexp.MustCompile(`^(\d{4})(-?)(\d{2})(-?)(\d{2})$`)
	isoWeek     = regexp.MustCompile(`^(\d{4})(-?)W(\d{2})(?:(-?)(\d))?$`)
)

// isoDate reads a folder name as an ISO 8601 date the way Python's
// date.fromisoformat does (YYYY-MM-DD, YYYYMMDD, YYYY-Www, YYYY-Www-D and
// their forms without dashes) and returns it as YYYY-MM-DD, or "".
func isoDate(s string) string {
	atoi := func(x string) int { n, _ := strconv.Atoi(x); return n }
	if m := isoCalendar.FindStringSubmatch(s); m != nil && m[2] == m[4] {
		y, mo, d := atoi(m[1]), atoi(m[3]), atoi(m[5])
		if y < 1 || mo < 1 || mo > 12 || d < 1 || d > py.DaysIn(y, mo) {
			return ""
		}
		return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
	}
	if m := isoWeek.FindStringSubmatch(s); m != nil && (m[5] == "" || m[2] == m[4]) {
		y, w, d := atoi(m[1]), atoi(m[3]), 1
		if m[5] != "" {
			d = atoi(m[5])
		}
		jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
		monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
		weeks := 52
		if _, last := time.Date(y, 12, 28, 0, 0, 0, 0, time.UTC).ISOWeek(); last == 53 {
			weeks = 53
		}
		if y < 1 || w < 1 || w > weeks || d < 1 || d > 7 {
			return ""
		}
		return monday.AddDate(0, 0, (w-1)*7+d-1).Format("2006-01-02")
	}
	return ""
}
