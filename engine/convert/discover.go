package convert

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatlint/chatlint/engine/internal/py"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// Session is one session file found under the logs folder.
type Session struct {
	Path string // as printed: the logs folder joined with the relative path
	Rel  []string
	// DirDate is the date named by the first folder under the logs folder
	// (logs/2026-01-13/x.jsonl), "" when there is none.
	DirDate string
}

// discover lists every *.jsonl file below root, found as check finds its
// inputs (jsonl.ExpandHidden: symbolic links to files followed, to folders
// not, the root followed when it is one). The reference's rules, kept for
// its output to be the same: the suffix is case-sensitive, hidden folders
// are walked too (Python's rglob), other data files (*.json) are not
// sessions, and the files are sorted by path components: a/x < a-b/x <
// a.b/x, and B/ < a/ (the order of the output records). Folders it cannot
// read are returned as errors after the files it could.
func discover(root string) ([]Session, []error) {
	files, _, errs := jsonl.ExpandHidden([]string{root}, func(p string) bool {
		return strings.HasSuffix(filepath.Base(p), ".jsonl")
	})
	// The command checks that root is a folder; a root it cannot read
	// lists nothing, as in the reference.
	errs = slices.DeleteFunc(errs, func(err error) bool {
		var pe *fs.PathError
		return errors.As(err, &pe) && filepath.Clean(pe.Path) == filepath.Clean(root)
	})
	var out []Session
	for _, p := range files {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			continue
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		s := Session{Path: pyJoin(root, parts), Rel: parts}
		if len(parts) >= 2 {
			s.DirDate = isoDate(parts[0])
		}
		out = append(out, s)
	}
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
