package tokens

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCountsMatchLibraryOnData: every string of every JSON record of the
// fixtures, and of ../shared/data when it is there, splits into the
// regexp's pieces and counts as tiktoken-go counts it, in both encodings.
func TestCountsMatchLibraryOnData(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every fixture")
	}
	texts := map[string]bool{}
	for _, root := range []string{"../../fixtures", "../../../shared/data"} {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: skipped (%v)", root, err)
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Ext(path) {
			case ".jsonl", ".json", ".traj":
				collectStrings(t, path, texts)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(texts) == 0 {
		t.Fatal("no texts read")
	}
	for enc := range splitPatterns {
		c, err := NewCounter(enc)
		if err != nil {
			t.Fatal(err)
		}
		mismatches, tokens := 0, 0
		for s := range texts {
			got, want := c.tokenize(s), libraryCount(t, enc, s)
			tokens += want
			if got != want && mismatches < 10 {
				mismatches++
				t.Errorf("%s %.60q (%d bytes): %d tokens, tiktoken-go counts %d", enc, s, len(s), got, want)
			}
		}
		t.Logf("%s: %d distinct texts, %d tokens", enc, len(texts), tokens)
	}
}

// collectStrings adds the strings of each JSON value in the file (a value
// a line, or the whole file), keys included: the texts a count reads.
func collectStrings(t testing.TB, path string, into map[string]bool) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var whole strings.Builder
	lines := 0
	for sc.Scan() {
		lines++
		line := sc.Text()
		whole.WriteString(line)
		whole.WriteByte('\n')
		var v any
		if json.Unmarshal([]byte(line), &v) == nil {
			walkStrings(v, into)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var v any
	if lines > 1 && json.Unmarshal([]byte(whole.String()), &v) == nil {
		walkStrings(v, into)
	}
}

func walkStrings(v any, into map[string]bool) {
	switch v := v.(type) {
	case string:
		into[v] = true
	case []any:
		for _, e := range v {
			walkStrings(e, into)
		}
	case map[string]any:
		for k, e := range v {
			into[k] = true
			walkStrings(e, into)
		}
	}
}
