package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"testing"
)

// TestDenseShape: -shape dense gives, deterministically, records of 4-50
// messages whose clean tool results are under 100 bytes, with the defects
// scheduled as in the default shape.
func TestDenseShape(t *testing.T) {
	a, man := generate(t, "-shape", "dense", "-records", "400", "-seed", "3", "-defects", "0.05")
	b, _ := generate(t, "-shape", "dense", "-records", "400", "-seed", "3", "-defects", "0.05")
	if !bytes.Equal(a, b) {
		t.Fatal("same seed, different output")
	}
	if len(man) != 20 {
		t.Errorf("%d defects, want 20", len(man))
	}
	defective := map[int]bool{}
	for _, m := range man {
		defective[m.Line] = true
	}
	sc := bufio.NewScanner(bytes.NewReader(a))
	sc.Buffer(nil, 1<<20)
	var short, results int
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if defective[line] {
			continue
		}
		if n := len(rec.Messages); n < denseMinMsgs || n > denseMaxMsgs {
			t.Errorf("line %d: %d messages, want %d-%d", line, n, denseMinMsgs, denseMaxMsgs)
		}
		for _, m := range rec.Messages {
			if s, ok := m.Content.(string); ok && m.Role == "tool" {
				results++
				if len(s) < denseMaxBytes {
					short++
				}
			}
		}
	}
	if results == 0 || short != results {
		t.Errorf("%d of %d clean tool results under %d bytes", short, results, denseMaxBytes)
	}
	for _, args := range [][]string{{"-shape", "sparse"}, {"-format", "contract", "-shape", "dense"}} {
		if err := run(append(args, "-o", os.DevNull), io.Discard, io.Discard); err == nil {
			t.Errorf("run %v succeeded", args)
		}
	}
}
