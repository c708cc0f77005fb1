package astjson

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecode checks Decode against the reference on arbitrary input: both must
// agree on validity, valid input must give the same value, and errors must be
// *SyntaxError with an offset inside (or just past) the input, or *RangeError
// (valid JSON holding a number OPA refuses, which the reference refuses too).
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
			var re *RangeError
			if errors.As(err, &re) {
				if !json.Valid(data) {
					t.Fatalf("Decode(%q) = range error %v on invalid JSON", data, err)
				}
				if re.Offset < 0 || re.Offset >= len(data) {
					t.Fatalf("Decode(%q) range error offset %d outside the input", data, re.Offset)
				}
				return
			}
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
