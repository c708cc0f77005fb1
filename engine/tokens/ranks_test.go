package tokens

import "testing"

// TestRanksMatchTiktokenGo: the embedded tables hold tiktoken-go's tokens,
// every one at its rank, and nothing after them.
func TestRanksMatchTiktokenGo(t *testing.T) {
	for _, enc := range Encodings {
		r, err := rankTable(enc)
		if err != nil {
			t.Fatal(err)
		}
		codec, err := Codec(enc)
		if err != nil {
			t.Fatal(err)
		}
		for id := range uint32(len(r.start)) {
			want, err := codec.Decode([]uint{uint(id)})
			if err != nil {
				t.Fatalf("%s: tiktoken-go has no token %d: %v", enc, id, err)
			}
			if got := r.token(id); got != want {
				t.Fatalf("%s: token %d is %q, tiktoken-go's %q", enc, id, got, want)
			}
			if got := r.rank(want); got != id {
				t.Fatalf("%s: %q has rank %d, want %d", enc, want, got, id)
			}
		}
		if _, err := codec.Decode([]uint{uint(len(r.start))}); err == nil {
			t.Errorf("%s: tiktoken-go has a token after the table's last, %d", enc, len(r.start)-1)
		}
		if got := r.rank("not a token at all, surely"); got != noRank {
			t.Errorf("%s: a long phrase has rank %d", enc, got)
		}
	}
	if _, err := rankTable("p50k_base"); err == nil {
		t.Error("an encoding without a table gave no error")
	}
}
