// Command chatlint-gen writes deterministic, realistic benchmark data for
// chatlint: JSONL chat fine-tuning records or proxy request/response logs,
// with a controlled fraction of records carrying real integrity defects.
//
// Usage:
//
//	go run ./internal/tools/chatlint-gen -format chat -size 300MB -seed 1 -o out.jsonl
//	go run ./internal/tools/chatlint-gen -format chat -records 2000 -o - | head
//	go run ./internal/tools/chatlint-gen -format proxy-log -sessions 500 -o sessions/ -manifest defects.json
//
// Flags:
//
//	-format chat|proxy-log|contract|codex|claude-code  what to generate (default chat);
//	                        contract records are described in contract.go, codex and
//	                        claude-code sessions (long agent sessions, a directory of
//	                        files) in codex.go
//	-lines N                codex, claude-code: about N lines in every session (default
//	                        2,000-20,000, drawn per session)
//	-shape dense            chat: message-dense records, 4-50 short messages each, tool
//	                        arguments and results mostly under 100 bytes (dense.go)
//	-size SIZE              stop when the output reaches SIZE: plain bytes, or a number
//	                        with B, KB, MB, GB (1000-based) or KiB, MiB, GiB (1024-based)
//	-records N              chat, contract: exactly N records (default 1000 when -size is not given)
//	-sessions N             proxy-log: exactly N sessions (default 100 when -size is not given)
//	-seed N                 random seed (default 1)
//	-o PATH                 output file, "-" for stdout (default), or for proxy-log a
//	                        directory (existing, ending in "/", or without extension)
//	-defects F              fraction of defective records or sessions (default 0.01)
//	-manifest FILE          write where the defects are, as a JSON list
//	-q                      no summary on stderr
//
// The same flags and seed always give byte-identical output: every record
// (chat) or session (proxy-log) draws from its own PCG seeded from the seed
// and its index, and nothing depends on time or map order.
//
// # Chat
//
// One OpenAI fine-tuning record per line: {"messages": [...], "tools": [...]}.
// A system message, then 3–20 turns of a user message and assistant replies;
// some assistant messages make 1–3 tool calls, each answered by a tool
// message (plain text or a JSON object, 20 B to ~4 KB). About 90% of the
// records share one byte-identical tools array; the rest use one of four
// variants. About 15% of the records escape non-ASCII text as \uXXXX, like
// Python's json.dumps. Records average about 5 KB.
//
// # Proxy log
//
// One request/response pair per line: {"timestamp", "session_id", "request":
// {"model", "temperature", "messages", "tools"}, "response": {"id", "object",
// "created", "model", "choices": [{"index", "message", "finish_reason"}],
// "usage"}, "latency_ms"}. A session has 3–12 lines; each request carries the
// full history (previous request, previous response, new user or tool
// messages) and timestamps strictly increase. With -o DIR each session is its
// own file, DIR/session-00001.jsonl, …; otherwise sessions are concatenated.
//
// # Defects
//
// A -defects fraction of the records (chat) or sessions (proxy-log) carry
// exactly one defect, and clean records have none: each defective record
// should draw exactly one finding of the integrity pack. The positions are random but stratified (the count over
// n records is n×fraction give or take one) and the kinds rotate through
// random permutations, so every kind occurs equally often:
//
//	tool-result-missing      a tool call has no tool message answering it
//	tool-result-orphan       a tool message answers a tool_call_id no call has
//	tool-result-duplicate    two tool messages answer the same tool_call_id
//	legacy-function-call     an assistant message carries "function_call"
//	tool-call-missing-input  a tool call's function has no "arguments"
//	tool-result-flagged      a tool result is {"status":"error","error":"timeout after 30s",…}
//	tool-definition-schema   a tool definition's parameters.type is "dict"
//	tool-calls-shape         "tool_calls" is one call object instead of a list (and,
//	                         since such a call pairs with nothing, it has no result)
//	session-id-mismatch      proxy-log: one line has another session_id
//	timestamp-not-increasing proxy-log: one line's timestamp precedes the previous line's
//
// The manifest is a JSON list with one object per defect. Chat:
// {"line": N, "defect": KIND, "message_index": M, "tool_call_index": C,
// "tool_index": T} (1-based line; the indices, present when they apply, are
// 0-based positions in "messages", the message's "tool_calls", and "tools").
// Proxy-log: {"file": PATH, "defect": KIND, "session_id": ID, "line": N,
// "message_index": M, …} where line (1-based, within file) is given for the
// line-level kinds, and message_index indexes the session's full message
// history (the last request's messages followed by its response message).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "chatlint-gen:", err)
		os.Exit(1)
	}
}

type options struct {
	format   string
	shape    string
	size     int64
	records  int
	sessions int
	lines    int
	seed     uint64
	out      string
	defects  float64
	manifest string
	quiet    bool
}

type manifestEntry struct {
	File          string `json:"file,omitempty"`
	Line          int    `json:"line,omitempty"`
	Defect        string `json:"defect"`
	SessionID     string `json:"session_id,omitempty"`
	MessageIndex  *int   `json:"message_index,omitempty"`
	ToolCallIndex *int   `json:"tool_call_index,omitempty"`
	ToolIndex     *int   `json:"tool_index,omitempty"`
}

type stats struct {
	records  int // lines written
	sessions int
	bytes    int64
	defects  int
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	var (
		st  stats
		man []manifestEntry
	)
	switch o.format {
	case "chat":
		st, man, err = writeChat(o, stdout)
	case "proxy-log":
		st, man, err = writeProxy(o, stdout)
	case "contract":
		st, man, err = writeContract(o, stdout)
	case "codex":
		st, man, err = writeCodex(o, stdout)
	case "claude-code":
		st, man, err = writeClaudeCode(o, stdout)
	}
	if err != nil {
		return err
	}
	if o.manifest != "" {
		if err := writeManifest(o.manifest, man); err != nil {
			return err
		}
	}
	if !o.quiet {
		d := time.Since(start).Seconds()
		what := fmt.Sprintf("%d records", st.records)
		per := "record"
		if o.format == "proxy-log" || o.format == "codex" || o.format == "claude-code" {
			what = fmt.Sprintf("%d sessions, %d lines", st.sessions, st.records)
			per = "line"
		}
		fmt.Fprintf(stderr, "chatlint-gen: %s, %d bytes (avg %.0f B/%s), %d defects, %.2fs, %.0f MB/s\n",
			what, st.bytes, float64(st.bytes)/math.Max(1, float64(st.records)), per,
			st.defects, d, float64(st.bytes)/1e6/math.Max(d, 1e-9))
	}
	return nil
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("chatlint-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	var size string
	var seed int64
	fs.StringVar(&o.format, "format", "chat", "chat, proxy-log, contract, codex or claude-code")
	fs.StringVar(&o.shape, "shape", "", `chat: "dense" for 4-50 short messages per record`)
	fs.StringVar(&size, "size", "", "target output size: bytes, or with B/KB/MB/GB (1000-based) or KiB/MiB/GiB")
	fs.IntVar(&o.records, "records", 0, "chat: number of records (default 1000 without -size)")
	fs.IntVar(&o.sessions, "sessions", 0, "proxy-log, codex, claude-code: number of sessions (default 100 without -size)")
	fs.IntVar(&o.lines, "lines", 0, "codex, claude-code: about this many lines per session (default 2,000-20,000)")
	fs.Int64Var(&seed, "seed", 1, "random seed")
	fs.StringVar(&o.out, "o", "-", `output file, "-" for stdout, or a directory for proxy-log`)
	fs.Float64Var(&o.defects, "defects", 0.01, "fraction of defective records (chat) or sessions (proxy-log)")
	fs.StringVar(&o.manifest, "manifest", "", "write the defect locations to this JSON file")
	fs.BoolVar(&o.quiet, "q", false, "do not print a summary to stderr")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chatlint-gen [-format chat|proxy-log|contract|codex|claude-code] [-shape dense] [-size SIZE | -records N | -sessions N] [-seed N] [-o PATH] [-defects F] [-manifest FILE]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.seed = uint64(seed)
	if o.format != "chat" && o.format != "proxy-log" && o.format != "contract" && o.format != "codex" && o.format != "claude-code" {
		return nil, fmt.Errorf("-format must be chat, proxy-log, contract, codex or claude-code, not %q", o.format)
	}
	if o.shape != "" && (o.shape != "dense" || o.format != "chat") {
		return nil, fmt.Errorf("-shape %q: the only shape is dense, for -format chat", o.shape)
	}
	if size != "" {
		n, err := parseSize(size)
		if err != nil {
			return nil, err
		}
		o.size = n
	}
	if o.records < 0 || o.sessions < 0 {
		return nil, errors.New("-records and -sessions must not be negative")
	}
	sessions := o.format == "proxy-log" || o.format == "codex" || o.format == "claude-code"
	if o.lines < 0 || o.lines > 0 && o.format != "codex" && o.format != "claude-code" {
		return nil, errors.New("-lines applies to -format codex and claude-code, and must not be negative")
	}
	if !sessions && o.sessions > 0 {
		return nil, errors.New("-sessions applies to -format proxy-log; use -records")
	}
	if sessions && o.records > 0 {
		return nil, errors.New("-records applies to -format chat; use -sessions")
	}
	if o.size > 0 && (o.records > 0 || o.sessions > 0) {
		return nil, errors.New("give either -size or a count, not both")
	}
	if o.size == 0 && o.records == 0 && o.sessions == 0 {
		if !sessions {
			o.records = 1000
		} else {
			o.sessions = 100
		}
	}
	if !(o.defects >= 0 && o.defects <= 1) {
		return nil, errors.New("-defects must be between 0 and 1")
	}
	return o, nil
}

// parseSize parses "300MB", "1.5 GB", "64KiB", "1000" (bytes).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	mult := map[string]float64{
		"": 1, "B": 1,
		"K": 1e3, "KB": 1e3, "M": 1e6, "MB": 1e6, "G": 1e9, "GB": 1e9,
		"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30,
	}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v <= 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("invalid -size %q (want e.g. 300MB, 1.5GB, 64KiB or a byte count)", s)
	}
	n := v * mult
	if n < 1 || n > math.MaxInt64/2 {
		return 0, fmt.Errorf("-size %q out of range", s)
	}
	return int64(n), nil
}

// fits says whether a record of n bytes should still be written when written
// bytes are out and the target is target: yes if it stays within the target,
// or if overshooting lands closer to the target than stopping would.
func fits(written int64, n int, target int64, count int) bool {
	if count == 0 {
		return true
	}
	end := written + int64(n)
	return end <= target || end-target <= target-written
}

func intPtr(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

func writeChat(o *options, stdout io.Writer) (st stats, man []manifestEntry, err error) {
	return writeRecords(o, stdout, chatDefects, func(g *generator, i uint64, kind string) ([]byte, manifestEntry) {
		record := g.chatRecord
		if o.shape == "dense" {
			record = g.denseRecord
		}
		rec, info := record(i, kind)
		return rec, manifestEntry{
			Defect:       kind,
			MessageIndex: intPtr(info.messageIndex), ToolCallIndex: intPtr(info.toolCallIndex), ToolIndex: intPtr(info.toolIndex),
		}
	})
}

// writeRecords writes one record a line, as record makes them for each
// index and scheduled defect kind, until -records or -size is reached. A
// record whose entry names a defect goes to the manifest, at its line.
func writeRecords(o *options, stdout io.Writer, defects []string, record func(g *generator, i uint64, kind string) ([]byte, manifestEntry)) (st stats, man []manifestEntry, err error) {
	w, closeOut, err := openOutput(o.out, stdout)
	if err != nil {
		return st, nil, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := newGenerator(o.seed)
	sched := newSchedule(o.seed, o.defects, defects)
	for i := uint64(0); ; i++ {
		if o.records > 0 && i >= uint64(o.records) || o.size > 0 && st.bytes >= o.size {
			break
		}
		rec, entry := record(g, i, sched.at(i))
		if o.size > 0 && !fits(st.bytes, len(rec), o.size, st.records) {
			break
		}
		if _, err := bw.Write(rec); err != nil {
			closeOut()
			return st, nil, err
		}
		st.records++
		st.bytes += int64(len(rec))
		if entry.Defect != "" {
			st.defects++
			entry.Line = st.records
			man = append(man, entry)
		}
	}
	if err := bw.Flush(); err != nil {
		closeOut()
		return st, nil, err
	}
	return st, man, closeOut()
}

func writeProxy(o *options, stdout io.Writer) (st stats, man []manifestEntry, err error) {
	dir := ""
	if o.out != "-" {
		fi, statErr := os.Stat(o.out)
		if statErr == nil && fi.IsDir() || strings.HasSuffix(o.out, "/") || strings.HasSuffix(o.out, string(os.PathSeparator)) ||
			statErr != nil && filepath.Ext(o.out) == "" {
			dir = o.out
		}
	}
	var (
		bw       *bufio.Writer
		closeOut func() error
	)
	if dir == "" {
		var w io.Writer
		w, closeOut, err = openOutput(o.out, stdout)
		if err != nil {
			return st, nil, err
		}
		bw = bufio.NewWriterSize(w, 1<<20)
	} else {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return st, nil, err
		}
		if old, _ := filepath.Glob(filepath.Join(dir, "session-*.jsonl")); len(old) > 0 {
			return st, nil, fmt.Errorf("%s already holds session files (%s, …); remove them or use an empty directory", dir, filepath.Base(old[0]))
		}
	}
	fail := func(err error) (stats, []manifestEntry, error) {
		if closeOut != nil {
			closeOut()
		}
		return st, nil, err
	}

	g := newGenerator(o.seed)
	sched := newSchedule(o.seed, o.defects, proxyDefects)
	for i := uint64(0); ; i++ {
		if o.sessions > 0 && i >= uint64(o.sessions) || o.size > 0 && st.bytes >= o.size {
			break
		}
		kind := sched.at(i)
		data, lines, sid, info := g.proxySession(i, kind)
		if o.size > 0 && !fits(st.bytes, len(data), o.size, st.sessions) {
			break
		}
		file, firstLine := o.out, st.records+1
		if dir != "" {
			file = filepath.Join(dir, fmt.Sprintf("session-%05d.jsonl", i+1))
			firstLine = 1
			if err := os.WriteFile(file, data, 0o644); err != nil {
				return fail(err)
			}
		} else if _, err := bw.Write(data); err != nil {
			return fail(err)
		}
		st.sessions++
		st.records += lines
		st.bytes += int64(len(data))
		if kind != "" {
			st.defects++
			e := manifestEntry{
				File: file, Defect: kind, SessionID: sid,
				MessageIndex: intPtr(info.messageIndex), ToolCallIndex: intPtr(info.toolCallIndex), ToolIndex: intPtr(info.toolIndex),
			}
			if info.entry >= 0 {
				e.Line = firstLine + info.entry
			}
			man = append(man, e)
		}
	}
	if bw != nil {
		if err := bw.Flush(); err != nil {
			return fail(err)
		}
		return st, man, closeOut()
	}
	return st, man, nil
}

func openOutput(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "-" {
		return stdout, func() error { return nil }, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, nil, fmt.Errorf("-o %s is a directory (only -format proxy-log writes one file per session)", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

func writeManifest(path string, man []manifestEntry) error {
	b := []byte("[")
	for i := range man {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		e, err := json.Marshal(&man[i])
		if err != nil {
			return err
		}
		b = append(b, e...)
	}
	if len(man) > 0 {
		b = append(b, '\n')
	}
	b = append(b, "]\n"...)
	return os.WriteFile(path, b, 0o644)
}
