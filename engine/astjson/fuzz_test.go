package astjson

import (
	"errors"
	"testing"
)

// FuzzDecode checks Decode against the reference on arbitrary input: both must
// agree on validity, valid input must give the same value, and errors must be
// *SyntaxError with an offset inside (or just past) the input.
func FuzzDecode(f *testing.F) {
	for _, in := range validInputs {
		f.Add([]byte(in))
	}
	for _, tc := range invalidInputs {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(chatRecord))
	f.Add([]byte(manyKeys(40, true)))

	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data)
		want, refErr := reference(data)
		switch {
		case err != nil && refErr != nil:
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Decode(%q) error %T is not a *SyntaxError", data, err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("Decode(%q) error offset %d outside the input", data, se.Offset)
			}
		case err != nil:
			t.Fatalf("Decode(%q) = %v; the reference accepts it", data, err)
		case refErr != nil:
			t.Fatalf("Decode(%q) accepts; the reference rejects it: %v", data, refErr)
		default:
			checkSame(t, data, got, want)
		}
	})
}
