package astjson

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedData holds real chat datasets kept next to the repository; the test
// is skipped where it is absent.
const sharedData = "../../../shared/data"

// TestDecodeRealData decodes every line of every .jsonl file and every .json
// file under sharedData with Decode and with the reference.
func TestDecodeRealData(t *testing.T) {
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("no shared data: %v", err)
	}
	var files int
	err := filepath.WalkDir(sharedData, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		var docs [][]byte
		switch {
		case strings.HasSuffix(path, ".jsonl"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			docs = bytes.Split(b, []byte("\n"))
		case strings.HasSuffix(path, ".json"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			docs = [][]byte{b}
		default:
			return nil
		}
		files++
		t.Run(strings.TrimPrefix(path, sharedData+"/"), func(t *testing.T) {
			var valid, invalid int
			for n, doc := range docs {
				if len(bytes.TrimSpace(doc)) == 0 {
					continue // blank lines are not records
				}
				want, refErr := reference(doc)
				got, err := Decode(doc)
				switch {
				case refErr != nil && err != nil:
					invalid++
				case refErr != nil:
					t.Errorf("line %d: reference rejects (%v), Decode accepts", n+1, refErr)
				case err != nil:
					t.Errorf("line %d: Decode: %v", n+1, err)
				default:
					valid++
					checkSame(t, doc, got, want)
				}
			}
			t.Logf("%d valid, %d invalid documents", valid, invalid)
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("no .json or .jsonl files under %s", sharedData)
	}
}
