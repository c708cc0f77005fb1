//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/internal/denselines"
	"github.com/chatlint/chatlint/internal/sweep"
)

// peakRun runs chatlint as a process with 2 workers and returns its exit
// status, its output and its peak RSS (VmHWM).
func peakRun(t *testing.T, dir string, args ...string) (int, string, int64) {
	t.Helper()
	cmd := chatlintProcess(append([]string{args[0], "--workers", "2"}, args[1:]...)...)
	hwm := filepath.Join(dir, "status")
	cmd.Env = append(cmd.Env, "CHATLINT_TEST_HWM="+hwm)
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), string(out), vmHWM(t, hwm)
}

// writeDense writes the named dense record of docs/limits.md's table.
func writeDense(t *testing.T, dir, shape string) string {
	t.Helper()
	size := 60 << 20
	if shape == "messages" {
		size = 32 << 20
	}
	in := filepath.Join(dir, shape+".jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := denselines.Write(f, shape, size); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestDenseLinesPeakMemory runs check, stats, check --profile openai and
// convert --to openai as processes over the dense records of
// docs/limits.md's table (scripts/dense-lines), at the table's sizes, and
// holds each under 300 MB. A record whose values the run builds past
// --max-record-values is record-too-dense, its decode stopped at the
// bound (check peaked at 1.3 GB on calls, convert at 4.6 GB); check on
// member builds none of its numbers, so it is checked as before.
func TestDenseLinesPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and checks records of up to 60 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	for _, shape := range []string{"member", "parts", "calls", "messages"} {
		in := writeDense(t, dir, shape)
		for _, args := range [][]string{
			{"check", in},
			{"stats", in},
			{"check", "--profile", "openai", in},
			{"convert", "--to", "openai", "-o", filepath.Join(dir, "out.jsonl"), in},
		} {
			dense := !(shape == "member" && len(args) == 2 && args[0] == "check")
			code, out, peak := peakRun(t, dir, args...)
			if want := 1; dense && (code != want || !strings.Contains(out, "record-too-dense")) {
				t.Errorf("%s %v: exit %d, want %d and record-too-dense: %.600s", shape, args[:len(args)-1], code, want, out)
			}
			if !dense && (code != 0 || strings.Contains(out, "record-too-dense")) {
				t.Errorf("%s %v: exit %d, want 0: %.600s", shape, args[:len(args)-1], code, out)
			}
			if strings.Contains(out, "policy-error") {
				t.Errorf("%s %v: policy-error: %.600s", shape, args[:len(args)-1], out)
			}
			if peak > 300<<20 {
				t.Errorf("%s %v: peak RSS %d MB, want at most 300 MB", shape, args[:len(args)-1], peak>>20)
			}
		}
		os.Remove(in)
	}
}

// TestDenseFixPeakMemory runs fix as a process over the dense records and
// holds it under its 350 MB bound: on member fix builds none of the
// numbers and fixes the record; the others are over --max-record-values and
// written back byte for byte (fix took 0.8-1.7 GB on calls and messages).
func TestDenseFixPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and fixes records of 60 MB: runs under -tags exhaustive (.ci/run)")
	}
	for _, shape := range []string{"member", "parts", "calls", "messages"} {
		t.Run(shape, func(t *testing.T) {
			dir := t.TempDir()
			in := writeDense(t, dir, shape)
			out := filepath.Join(dir, "out.jsonl")
			code, msg, peak := peakRun(t, dir, "fix", "-o", out, in)
			want := 1
			if shape == "member" {
				want = 0
			}
			if code != want {
				t.Errorf("exit %d, want %d: %.600s", code, want, msg)
			}
			if peak > 350<<20 {
				t.Errorf("peak RSS %d MB, want at most 350 MB", peak>>20)
			}
			if shape != "member" && !sameFile(t, in, out) {
				t.Errorf("the record over the bound was not written back byte for byte")
			}
		})
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// TestDenseUnderBoundPeakMemory holds every command to docs/limits.md's
// promise on the worst records found just under the default
// --max-record-values: twelve records of messages with a role and nothing
// else (two values a message: per message, check and the openai profile
// make findings, convert a note), which the two workers read two at a
// time. At twice the bound, convert and the openai profile went past
// 350 MB.
func TestDenseUnderBoundPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("checks 12 records of 50,000 values with every command: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	n := (astjson.DefaultMaxValues - 1) / 2
	for _, shape := range []string{"roles", "badroles"} {
		var b strings.Builder
		for range 12 {
			b.WriteString(`{"messages":[`)
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				switch {
				case shape == "badroles":
					b.WriteString(`{"role":"x` + strconv.Itoa(i%7) + `"}`)
				case i%2 == 0:
					b.WriteString(`{"role":"user"}`)
				default:
					b.WriteString(`{"role":"assistant"}`)
				}
			}
			b.WriteString("]}\n")
		}
		in := filepath.Join(dir, shape+".jsonl")
		if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		checkedWithinPromise(t, dir, in, shape)
	}
}

// TestSparseUnderAllowancePeakMemory: a record just under the allowance
// of a sparse record (astjson.Allowance: twice the bound when it holds a
// value per 48 bytes), read whole as one .json document, stays within the
// memory every command promises. Its messages are the worst shape found
// for it: each has only a role, a 96-character one no rule knows, so each
// is a finding in check and a note in convert.
func TestSparseUnderAllowancePeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("checks a 5 MB document of 100,000 values with every command: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	n := (astjson.SparseFactor*astjson.DefaultMaxValues - 2) / 2
	var b strings.Builder
	b.WriteString(`{"messages":[`)
	pad := strings.Repeat("x", 90)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"role":"%s%06d"}`, pad, i)
	}
	b.WriteString("]}")
	in := filepath.Join(dir, "long.json")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	checkedWithinPromise(t, dir, in, "long.json")
}

// checkedWithinPromise runs check (default and --profile openai), stats,
// convert --to openai and fix -o on in, a record under the bounds: each
// reads it whole (no record-too-dense, no policy-error) within the peak
// RSS limits.md promises.
func checkedWithinPromise(t *testing.T, dir, in, label string) {
	t.Helper()
	for _, c := range []struct {
		args  []string
		bound int64
	}{
		{[]string{"check", in}, 300 << 20},
		{[]string{"stats", in}, 300 << 20},
		{[]string{"check", "--profile", "openai", in}, 300 << 20},
		{[]string{"convert", "--to", "openai", "-o", filepath.Join(dir, "out.jsonl"), in}, 300 << 20},
		{[]string{"fix", "-o", filepath.Join(dir, "fixed"+filepath.Ext(in)), in}, 350 << 20},
	} {
		_, out, peak := peakRun(t, dir, c.args...)
		if strings.Contains(out, "record-too-dense") || strings.Contains(out, "policy-error") {
			t.Errorf("%s %v: %.600s", label, c.args[:len(c.args)-1], out)
		}
		if peak > c.bound {
			t.Errorf("%s %v: peak RSS %d MB, want at most %d MB", label, c.args[:len(c.args)-1], peak>>20, c.bound>>20)
		}
	}
}
