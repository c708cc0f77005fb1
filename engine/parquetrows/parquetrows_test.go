package parquetrows

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// The shapes of Hugging Face dataset shards: a prompt list of {content,
// role} (verl, SkyRL), flat prompt/response text with a system prompt
// (a router's SFT data), and a messages column.
type msg struct {
	Content string `parquet:"content"`
	Role    string `parquet:"role"`
}

type rlRow struct {
	Prompt     []msg  `parquet:"prompt,list"`
	DataSource string `parquet:"data_source"`
}

type flatRow struct {
	Prompt       string  `parquet:"prompt"`
	SystemPrompt string  `parquet:"system_prompt"`
	Response     string  `parquet:"response"`
	Score        float64 `parquet:"score"`
}

type chatRow struct {
	Messages []msg `parquet:"messages,list"`
}

// write makes a Parquet file of rows, several row groups when rowsPerGroup
// is smaller than the rows.
func write[T any](t *testing.T, rows []T, rowsPerGroup int) []byte {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b, parquet.MaxRowsPerRowGroup(int64(rowsPerGroup)))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(t *testing.T, data []byte) ([]string, error) {
	t.Helper()
	var got []string
	err := Read(bytes.NewReader(data), int64(len(data)), func(r jsonl.Record) error {
		got = append(got, string(r.Data))
		if r.Line != len(got) {
			t.Errorf("row %d has line %d", len(got), r.Line)
		}
		return nil
	})
	return got, err
}

func TestReadRows(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want []string
	}{
		{
			name: "a prompt list of messages, over two row groups: messages made from it",
			data: write(t, []rlRow{
				{Prompt: []msg{{"Add 2 and 3.", "user"}}, DataSource: "arith"},
				{Prompt: []msg{{"Be terse.", "system"}, {"Add 4 and 4.", "user"}}, DataSource: "arith"},
				{Prompt: []msg{{"Add 1 and 9.", "user"}}, DataSource: "arith"},
			}, 2),
			want: []string{
				`{"prompt":[{"content":"Add 2 and 3.","role":"user"}],"data_source":"arith","messages":[{"content":"Add 2 and 3.","role":"user"}]}`,
				`{"prompt":[{"content":"Be terse.","role":"system"},{"content":"Add 4 and 4.","role":"user"}],"data_source":"arith","messages":[{"content":"Be terse.","role":"system"},{"content":"Add 4 and 4.","role":"user"}]}`,
				`{"prompt":[{"content":"Add 1 and 9.","role":"user"}],"data_source":"arith","messages":[{"content":"Add 1 and 9.","role":"user"}]}`,
			},
		},
		{
			name: "flat prompt, system prompt and response: columns in schema order, then messages",
			data: write(t, []flatRow{{Prompt: "list files", SystemPrompt: "You route shell commands.", Response: "ls -la", Score: 0.5}}, 10),
			want: []string{`{"prompt":"list files","system_prompt":"You route shell commands.","response":"ls -la","score":0.5,"messages":[{"content":"You route shell commands.","role":"system"},{"content":"list files","role":"user"},{"content":"ls -la","role":"assistant"}]}`},
		},
		{
			name: "a messages column is read as it is",
			data: write(t, []chatRow{{Messages: []msg{{"Hi", "user"}, {"Hello!", "assistant"}}}}, 10),
			want: []string{`{"messages":[{"content":"Hi","role":"user"},{"content":"Hello!","role":"assistant"}]}`},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A file that is not Parquet, cut short or damaged is an error that says
// so, never a panic.
func TestReadBadFiles(t *testing.T) {
	good := write(t, []flatRow{{Prompt: "p", Response: "r"}}, 10)
	damaged := bytes.Clone(good)
	for i := 4; i < len(damaged)-8; i += 3 {
		damaged[i] ^= 0x5a
	}
	for name, data := range map[string][]byte{
		"JSON named .parquet": []byte(`{"prompt": "p"}` + "\n"),
		"cut short":           good[:len(good)/2],
		"magic only":          []byte("PAR1\x00\x00\x00\x00PAR1"),
		"damaged":             damaged,
	} {
		_, err := readAll(t, data)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *parquetrows.Error", name, err)
		}
	}
}

func TestMessages(t *testing.T) {
	for _, tt := range []struct {
		row  map[string]any
		want []any
	}{
		{map[string]any{"messages": []any{}}, nil},
		{map[string]any{"conversations": []any{}, "prompt": "x"}, nil},
		{map[string]any{"label": true}, nil},
		{map[string]any{"instruction": "Sum 1 and 2.", "output": "3"}, []any{map[string]any{"role": "user", "content": "Sum 1 and 2."}, map[string]any{"role": "assistant", "content": "3"}}},
		// a preference row's chosen is not taken for the only answer
		{map[string]any{"prompt": "Pick.", "chosen": "A", "rejected": "B"}, []any{map[string]any{"role": "user", "content": "Pick."}}},
		{map[string]any{"prompt": []any{map[string]any{"role": "user", "content": "Q"}}, "completion": []any{map[string]any{"role": "assistant", "content": "A"}}},
			[]any{map[string]any{"role": "user", "content": "Q"}, map[string]any{"role": "assistant", "content": "A"}}},
		{map[string]any{"prompt": []any{"not a message"}}, nil},
	} {
		if diff := cmp.Diff(tt.want, Messages(tt.row)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tt.row, diff)
		}
	}
}

// The Parquet shards of ../shared/data read whole, row by row.
func TestReadSharedData(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "parquet")
	for name, rows := range map[string]int{
		"smollm2-customs-train-00000-of-00001.parquet": 48,
		"verl-pr3489-bfcl-test_example.parquet":        5,
		"skyrl-pr31-arithmetic_sequence-test.parquet":  200,
	} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			t.Skip("../shared/data is absent")
		}
		n := 0
		err := ReadFile(p, func(r jsonl.Record) error {
			n++
			if !bytes.Contains(r.Data, []byte(`"messages":[`)) {
				t.Errorf("%s row %d has no messages: %.200s", name, r.Line, r.Data)
			}
			return nil
		})
		if err != nil || n != rows {
			t.Errorf("%s: %d rows, %v; want %d", name, n, err, rows)
		}
	}
}

// FuzzRead: whatever the bytes, Read returns (rows, or an error), never
// panics or hangs.
func FuzzRead(f *testing.F) {
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Add([]byte(`{"prompt": "p"}`))
	var b bytes.Buffer
	w := parquet.NewGenericWriter[flatRow](&b)
	w.Write([]flatRow{{Prompt: "p", SystemPrompt: "s", Response: "r", Score: 1}})
	w.Close()
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rows := 0
		Read(bytes.NewReader(data), int64(len(data)), func(jsonl.Record) error {
			rows++
			return nil
		})
	})
}
