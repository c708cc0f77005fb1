package convert

import (
	"encoding/json"
	"strconv"

	"github.com/chatlint/chatlint/engine/internal/py"
)

// Timestamp is an entry's time as the reference's model reads it (a pydantic
// datetime): with an offset (aware) or without (naive).
type Timestamp = py.DateTime

// parseTimestamp reads a timestamp value; ok is false when the reference's
// model would reject it.
func parseTimestamp(v any) (Timestamp, bool) {
	var (
		t   Timestamp
		why string
	)
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return Timestamp{}, false
		}
		t, why = py.UnixDateTime(f)
	case string:
		t, why = py.ParseDateTime(v)
	default:
		return Timestamp{}, false
	}
	return t, why == ""
}
