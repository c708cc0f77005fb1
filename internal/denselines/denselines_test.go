package denselines

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWrite: each shape is one line of valid JSON, an object, of about the
// size asked (never short of it by more than its tail), the same bytes on
// every call, and an unknown shape is an error.
func TestWrite(t *testing.T) {
	const size = 10_000
	for _, name := range Shapes() {
		var a, b bytes.Buffer
		n, err := Write(&a, name, size)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := Write(&b, name, size); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two writes differ", name)
		}
		line := a.Bytes()
		if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
			t.Errorf("%s: not one line ending in a newline", name)
		}
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			t.Errorf("%s: not a JSON object: %v", name, err)
		}
		if len(line) < size || len(line) > size+200 || n < 2 {
			t.Errorf("%s: %d bytes, %d elements; want about %d bytes", name, len(line), n, size)
		}
	}
	if _, err := Write(&bytes.Buffer{}, "nope", 10); err == nil {
		t.Error("an unknown shape wrote a record")
	}
}
