package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/jsonv"
)

func TestPyNumber(t *testing.T) {
	for in, want := range map[string]string{
		"1": "1", "-0": "0", "123456789012345678901234567890": "123456789012345678901234567890",
		"1.50": "1.5", "1e5": "100000.0", "1E+2": "100.0", "-0.0": "-0.0", "1e16": "1e+16",
		"1e15": "1000000000000000.0", "0.0001": "0.0001", "0.00001": "1e-05", "1e400": "Infinity",
		"-1e400": "-Infinity", "1e-400": "0.0", "123456789.123456789": "123456789.12345679", "2.5e-05": "2.5e-05",
	} {
		if got := pyNumber(in); got != want {
			t.Errorf("pyNumber(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestDecodePythonDuplicateKeys(t *testing.T) {
	v, err := decodePython([]byte(`{"a": 1, "b": 2, "a": 3.0}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(jsonv.Marshal(v, jsonv.Python)); got != `{"a": 3.0, "b": 2}` {
		t.Errorf("got %s", got)
	}
}

func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		in    any
		want  string // RFC 3339 with offset, "" when rejected
		aware bool
	}{
		{"2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z", true},
		{"2024-01-01 10:00:00", "2024-01-01T10:00:00Z", false},
		{"2024-01-01", "2024-01-01T00:00:00Z", false},
		{"2024-01-01T10:00", "2024-01-01T10:00:00Z", false},
		{"2024-01-01T10:00:00.1234567", "2024-01-01T10:00:00.123456Z", false},
		{"2024-01-01T10:00:00+0200", "2024-01-01T10:00:00+02:00", true},
		{"2024-01-01t10:00:00z", "2024-01-01T10:00:00Z", true},
		{"2024-01-01_10:00:00,5-05:30", "2024-01-01T10:00:00.5-05:30", true},
		{"1700000000", "2023-11-14T22:13:20Z", true},
		{json.Number("1700000000000"), "2023-11-14T22:13:20Z", true},
		{json.Number("1700000000.5"), "2023-11-14T22:13:20.5Z", true},
		{"+10", "1970-01-01T00:00:10Z", true},
		{".5", "1970-01-01T00:00:00.5Z", true},
		{json.Number("117000000001502"), "5677-07-31T16:00:01.502Z", true},
		{json.Number("1700000000000000"), "", false}, // microseconds: past year 9999 as milliseconds
		{"2024-01-01T10:00:00+02", "", false},
		{" 2024-01-01T10:00:00Z", "", false},
		{"2023-02-29T00:00:00", "", false},
		{"2024-01-01T24:00:00", "", false},
		{"1e3", "", false},
		{true, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		ts, ok := parseTimestamp(tt.in)
		got := ""
		if ok {
			got = ts.T.Format(time.RFC3339Nano)
		}
		if got != tt.want || ok && ts.Aware != tt.aware {
			t.Errorf("parseTimestamp(%v) = %s aware=%v, want %s aware=%v", tt.in, got, ts.Aware, tt.want, tt.aware)
		}
	}
}

func TestScenarioName(t *testing.T) {
	for in, want := range map[string]string{
		"logs/2026-01-13/arxiv-python-1737000000000000000.jsonl":       "arxiv-python",
		"market-brief-7F3A9C1E-0B2D-4E5F-8A9B-0C1D2E3F4A5B.jsonl":      "market-brief",
		"google-maps-es-01.jsonl":                                      "google-maps-es",
		"google-maps-es-01-7f3a9c1e-0b2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl": "google-maps-es",
		"report-2026-01.jsonl":                                         "report-2026-01",
		"maps-01.jsonl":                                                "maps-01",
		"a-b-1234567.jsonl":                                            "a-b-1234567",
		"x.y.jsonl":                                                    "x.y",
		".jsonl":                                                       ".jsonl",
		"task-a-01-02.jsonl":                                           "task-a-01-02",
	} {
		if got := scenarioName(in); got != want {
			t.Errorf("scenarioName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"b&w report": "b_w_report", "..x..": "x", "日本": "scenario", "a  b": "a_b"} {
		if got := outputName(in); got != want {
			t.Errorf("outputName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsoDate(t *testing.T) {
	for in, want := range map[string]string{
		"2024-01-13": "2024-01-13", "20240113": "2024-01-13", "2024-W03": "2024-01-15", "2024W032": "2024-01-16",
		"2020-W53-7": "2021-01-03", "2024-W53-1": "", "2024-013": "", "2024-02-30": "", "0000-01-01": "", "2024-0113": "", "logs": "",
	} {
		if got := isoDate(in); got != want {
			t.Errorf("isoDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiscoverOrder(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a-b/x.jsonl", "a/x.jsonl", "a.b/x.jsonl", "B/x.jsonl", "a/y.JSONL", "a/z.json", "top.jsonl", "a/dir.jsonl/inner.jsonl"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), nil, 0o644)
	}
	os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "link"))
	got, errs := discover(root)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var names []string
	for _, s := range got {
		names = append(names, strings.Join(s.Rel, "/"))
	}
	want := []string{"B/x.jsonl", "a/dir.jsonl/inner.jsonl", "a/x.jsonl", "a-b/x.jsonl", "a.b/x.jsonl", "top.jsonl"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestAnonymize(t *testing.T) {
	v, _ := decodePython([]byte(`{"a": "Mail John.Doe@Example.COM, john.doe@example.com; x@y, éz@q.io, k@ex.co1", "n": ["A@B.CD"], "k@e.io": 1}`))
	newAnonymizer(bytes.NewReader(bytes.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, 100))).scrub(v)
	got := string(jsonv.Marshal(v, jsonv.Python))
	want := `{"a": "Mail abcdefghijklmnop@example.com, abcdefghijklmnop@example.com; x@y, éz@q.io, k@ex.co1", "n": ["qrabcdefghijklmn@b.cd"], "k@e.io": 1}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestValidateSession(t *testing.T) {
	mk := func(sid, ts string, n int) *Entry {
		tm, ok := parseTimestamp(ts)
		if !ok {
			t.Fatalf("bad timestamp %s", ts)
		}
		return &Entry{SessionID: sid, Time: tm, Messages: make([]*jsonv.Object, n)}
	}
	tests := []struct {
		name    string
		entries []*Entry
		kept    int
		trunc   string
		err     string
	}{
		{"ok", []*Entry{mk("s", "2024-01-01T00:00:00Z", 1), mk("s", "2024-01-01T00:00:01Z", 2)}, 2, "", ""},
		{"trailing", []*Entry{mk("s", "2024-01-01T00:00:00Z", 2), mk("s", "2024-01-01T00:00:01Z", 4), mk("s", "2024-01-01T00:00:02Z", 4), mk("s", "2024-01-01T00:00:03Z", 1)}, 3,
			"Last entry 4 message count (1) below max (4); using entry 3 instead", ""},
		{"id before time", []*Entry{mk("s", "2024-01-01T00:00:01Z", 1), mk("s", "2024-01-01T00:00:00Z", 1), mk("t", "2024-01-01T00:00:02Z", 1)}, 0, "",
			"Session ID mismatch at entry 3 (session=t, file=f)"},
		{"same instant", []*Entry{mk("s", "2024-01-01T10:00:00Z", 1), mk("s", "2024-01-01T12:00:00+02:00", 1)}, 0, "", "Timestamp not increasing at entry 2 (session=s, file=f)"},
		{"mixed", []*Entry{mk("s", "2024-01-01T10:00:00", 1), mk("s", "2024-01-01T12:00:00Z", 1)}, 0, "", "Timestamps not comparable at entry 2 (session=s, file=f)"},
	}
	for _, tt := range tests {
		kept, trunc, err := validateSession(tt.entries, "f")
		gotErr, gotTrunc := "", ""
		if err != nil {
			gotErr = err.Error()
		}
		if trunc != nil {
			gotTrunc = trunc.String()
		}
		if len(kept) != tt.kept || gotTrunc != tt.trunc || gotErr != tt.err {
			t.Errorf("%s: kept %d, trunc %q, err %q; want %d, %q, %q", tt.name, len(kept), gotTrunc, gotErr, tt.kept, tt.trunc, tt.err)
		}
	}
}

func TestParseSessionSkips(t *testing.T) {
	data := "{\"a\": 1}\r\n\r\n  \n{bad\r" +
		`{"timestamp": "2024-01-01T00:00:00Z", "session_id": "s", "request": {"model": "m", "messages": [{"role": "user", "content": "hi", "name": null}], "n": "2"}}` + "\n" +
		`{"timestamp": "2024-01-01T00:00:00Z", "session_id": "s", "request": {"model": "m", "messages": [], "temperature": "hot"}}` + "\n" +
		`{"timestamp": "2024-01-01T00:00:00Z", "session_id": "s", "request": {"model": "m", "messages": []}, "response": {"id": "r", "choices": [{"message": {"role": "assistant"}}]}}` + "\n" +
		"\xff\n"
	entries, skipped := parseSession([]byte(data))
	if len(entries) != 1 || entries[0].Line != 5 {
		t.Fatalf("entries %+v", entries)
	}
	if got := string(jsonv.Marshal(entries[0].Messages[0], jsonv.Python)); got != `{"role": "user", "content": "hi"}` {
		t.Errorf("message dump %s", got)
	}
	var got []string
	for _, s := range skipped {
		got = append(got, s.String())
	}
	want := []string{
		"line 1 skipped: not a log entry: timestamp is missing",
		"line 4 skipped: invalid JSON: invalid character 'b' looking for beginning of object key string (byte 2)",
		"line 6 skipped: not a log entry: request.temperature has the wrong type: \"hot\"",
		"line 7 skipped: not a log entry: response.choices[0].index is missing",
		"line 8 skipped: not UTF-8 text",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// TestSharedProxyLogs converts the real proxy logs of ../shared/data. The
// routex gateway log (request under request.body, no session_id, HTTP 401
// and 405 with "success": true) is read as check's proxy-log adapter reads
// it: its first line gives the session's record, its second (a GET without a
// body) is skipped, and the 401 is reported whatever "success" says. The
// batch files are no proxy logs: they give no record, one way or the other
// (skipped lines, or a single format line once check recognizes them).
func TestSharedProxyLogs(t *testing.T) {
	dir := "../../../shared/data/proxy-logs"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data is absent")
	}
	var out bytes.Buffer
	outDir := t.TempDir()
	c := &Converter{Opts: Options{Logs: dir, Output: outDir, GroupBy: GroupDate, ToolReport: true, Integrity: true,
		Anonymize: true, CleanupGoose: true, Stdout: &out}}
	res, err := c.Run(context.Background())
	if err != nil || len(res.Unreadable) > 0 || res.Invalid != nil {
		t.Fatalf("err %v, unreadable %v, invalid %v", err, res.Unreadable, res.Invalid)
	}
	if res.Sessions != 3 || res.Records != 1 {
		t.Errorf("sessions %d records %d, want 3 and 1", res.Sessions, res.Records)
	}
	var routex []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "session=routex-anthropic-proxy-requests") {
			routex = append(routex, l[strings.LastIndexByte(l, '\t')+1:])
		}
	}
	want := []string{
		"line 2 skipped: not a log entry: neither request.messages nor request.body.messages is a list (HTTP status 405)",
		"tools list is empty",
		"proxy-http-error: entry 1 got HTTP status 401: the request failed, whatever the log's success field says",
	}
	if diff := cmp.Diff(want, routex); diff != "" {
		t.Errorf("routex report lines (-want +got):\n%s\n%s", diff, out.String())
	}
	rec, err := os.ReadFile(filepath.Join(outDir, "2025-10-17.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(rec), `{"messages": [{"role": "user", "content": "Hi"}], "tools": []}`+"\n"; got != want {
		t.Errorf("record %s, want %s", got, want)
	}
	for _, f := range []string{"groq-batch-input", "groq-batch-output"} {
		if !strings.Contains(out.String(), "session="+f) || strings.Contains(out.String(), "Wrote 2") {
			t.Errorf("%s: not reported as giving no record:\n%s", f, out.String())
		}
	}
}

func TestDecodePythonNonFinite(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": NaN, "b": -Infinity, "c": [Infinity], "s": "NaN Infinity \"NaN"}`: `{"a": NaN, "b": -Infinity, "c": [Infinity], "s": "NaN Infinity \"NaN"}`,
		`NaN`:         `NaN`,
		`[1.0, NaNx]`: "error",
	} {
		v, err := decodePython([]byte(in))
		got := "error"
		if err == nil {
			got = string(jsonv.Marshal(v, jsonv.Python))
		}
		if got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// TestLaxScalars pins what the entry model accepts as a float, an int and a
// bool, as pydantic's lax mode does.
func TestLaxScalars(t *testing.T) {
	for in, want := range map[string]string{ // float, int, bool
		`1`: "111", `1.5`: "100", `-0.0`: "111", `2`: "110", `"1.0"`: "110", `"5."`: "100", `"1_000"`: "110",
		`" 3 "`: "110", `"nan"`: "100", `"yes"`: "001", `"1e3"`: "100", `true`: "111", `"0x10"`: "000", `null`: "000",
	} {
		v, err := decodePython([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, f := range []func(jsonv.Value) bool{laxFloat, laxInt, laxBool} {
			got += map[bool]string{true: "1", false: "0"}[f(v)]
		}
		if got != want {
			t.Errorf("%s: float/int/bool %s, want %s", in, got, want)
		}
	}
}
