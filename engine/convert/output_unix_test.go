//go:build unix

package convert

import (
	"os"
	"testing"
)

// TestSpoolsLeaveNothingBehind: while records are spooled (the moment a
// kill would strike), the output folder holds no spool file: each is
// unlinked as soon as it is made, and read through its descriptor.
// Killed runs used to leave a .chatlint-convert-N.spool per group.
func TestSpoolsLeaveNothingBehind(t *testing.T) {
	dir := t.TempDir()
	o, err := newOutputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"2026-01-01", "2026-01-02"} {
		if err := o.add(g, []byte(`{"g":"`+g+`"}`+"\n")); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("while spooling the folder holds %v; a kill would leave them", entries)
	}
	if _, err := o.writeGroups(dir, false); err != nil {
		t.Fatal(err)
	}
	o.discard()
	got, err := os.ReadFile(dir + "/2026-01-02.jsonl")
	if err != nil || string(got) != `{"g":"2026-01-02"}`+"\n" {
		t.Errorf("group file = %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("folder holds %v, want the two group files", entries)
	}
}
