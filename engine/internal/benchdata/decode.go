package benchdata

import "testing"

// DecodeLines benchmarks decode over every line of a file under
// fixtures/bench, reporting bytes per second and allocations: how the
// decoders (astjson, jsonv) are compared on the same records.
func DecodeLines(b *testing.B, name string, decode func([]byte) error) {
	lines, err := Lines(name)
	if err != nil {
		b.Skip(err)
	}
	var size int64
	for _, l := range lines {
		size += int64(len(l))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if err := decode(l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
