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
		tokens := make([]string, 0, r.tokens) // the table's, in order
		for i := 0; i < len(r.data); i += 1 + int(r.data[i]) {
			tokens = append(tokens, r.data[i+1:i+1+int(r.data[i])])
		}
		if len(tokens) != r.tokens {
			t.Fatalf("%s: %d tokens in the table, %d counted", enc, len(tokens), r.tokens)
		}
		for id := range uint32(len(tokens)) {
			want, err := codec.Decode([]uint{uint(id)})
			if err != nil {
				t.Fatalf("%s: tiktoken-go has no token %d: %v", enc, id, err)
			}
			if got := tokens[id]; got != want {
				t.Fatalf("%s: token %d is %q, tiktoken-go's %q", enc, id, got, want)
			}
			if got := r.rank(want); got != id {
				t.Fatalf("%s: %q has rank %d, want %d", enc, want, got, id)
			}
		}
		if _, err := codec.Decode([]uint{uint(r.tokens)}); err == nil {
			t.Errorf("%s: tiktoken-go has a token after the table's last, %d", enc, r.tokens-1)
		}
		if got := r.rank("not a token at all, surely"); got != noRank {
			t.Errorf("%s: a long phrase has rank %d", enc, got)
		}
	}
	if _, err := rankTable("p50k_base"); err == nil {
		t.Error("an encoding without a table gave no error")
	}
}

// TestPairsAreRanks: the table of pairs gives every two bytes the rank the
// hashed table gives them, so a merge that starts from it joins as
// tiktoken's does.
func TestPairsAreRanks(t *testing.T) {
	for _, enc := range Encodings {
		r, err := rankTable(enc)
		if err != nil {
			t.Fatal(err)
		}
		tokens := 0
		for k := range 1 << 16 {
			s := string([]byte{byte(k >> 8), byte(k)})
			if got, want := r.rank(s), r.rankOf(s, r.hash(s)); got != want {
				t.Fatalf("%s %q: the pairs give rank %d, the table %d", enc, s, got, want)
			}
			if r.rank(s) != noRank {
				tokens++
			}
		}
		if tokens == 0 {
			t.Errorf("%s: no two bytes are a token", enc)
		}
	}
}
