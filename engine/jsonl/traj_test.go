package jsonl

import "testing"

// A SWE-agent trajectory (.traj) is one pretty-printed JSON object: read
// whole, as a .json file is, and picked up by a folder walk.
func TestTrajIsAJSONDocument(t *testing.T) {
	for _, p := range []string{"run/x.traj", "run/X.TRAJ", "a.json"} {
		if !IsJSONDocument(p) || !IsDataFile(p) {
			t.Errorf("%s: IsJSONDocument %v, IsDataFile %v", p, IsJSONDocument(p), IsDataFile(p))
		}
	}
	if IsJSONDocument("a.jsonl") || IsJSONDocument("a.trajectory") {
		t.Error("a .jsonl or .trajectory file read as one JSON document")
	}
}
