package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

// htmlRun feeds findings to an HTML writer keeping perRule of each rule
// and returns the writer (for its page data) and the page.
func htmlRun(t *testing.T, o Options, perRule int, stats *Stats, fs []finding.Finding, s finding.Summary) (*htmlWriter, string) {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWith("html", &b, o)
	if err != nil {
		t.Fatal(err)
	}
	h := w.(*htmlWriter)
	h.perRule = perRule
	w.(StatsReceiver).SetStats(stats)
	for _, f := range fs {
		if err := w.Finding(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(s); err != nil {
		t.Fatal(err)
	}
	return h, b.String()
}

// manyFindings makes n findings of rule a (errors in a.jsonl), n/2 of rule
// b (warnings, half in b.jsonl) and one info of rule c.
func manyFindings(n int) []finding.Finding {
	var fs []finding.Finding
	for i := range n {
		fs = append(fs, finding.Finding{Rule: "a", Severity: finding.Error, Message: fmt.Sprintf("a #%d", i), File: "a.jsonl", Line: i + 1, Pack: "p", Path: "/messages/0"})
		if i%2 == 0 {
			file := "a.jsonl"
			if i%4 == 0 {
				file = "b.jsonl"
			}
			fs = append(fs, finding.Finding{Rule: "b", Severity: finding.Warning, Message: fmt.Sprintf("b #%d", i), File: file, Line: i + 1, Pack: "p"})
		}
	}
	return append(fs, finding.Finding{Rule: "c", Severity: finding.Info, Message: "c", File: "c.jsonl", Line: 1, Pack: "p"})
}

func summaryOf(fs []finding.Finding) finding.Summary {
	s := finding.Summary{Files: 3, Records: 100}
	for _, f := range fs {
		s.Add(f)
	}
	return s
}

// TestHTMLCounts: the page's counts per rule, severity and file are the
// run's, and its totals equal the JSON report's for the same findings.
func TestHTMLCounts(t *testing.T) {
	fs := manyFindings(40)
	sum := summaryOf(fs)
	h, _ := htmlRun(t, Options{Rules: rules()}, 5, nil, fs, sum)
	p := h.page(sum)

	type ruleCount struct {
		ID                             string
		Errors, Warnings, Infos, Total int
		Sampled                        int
	}
	var got []ruleCount
	for _, r := range p.Rules {
		got = append(got, ruleCount{r.ID, r.Errors, r.Warnings, r.Infos, r.Total, r.Sampled})
	}
	want := []ruleCount{{"a", 40, 0, 0, 40, 5}, {"b", 0, 20, 0, 20, 5}, {"c", 0, 0, 1, 1, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	var quiet []string
	for _, r := range p.Quiet {
		quiet = append(quiet, r.ID)
	}
	if diff := cmp.Diff([]string{"tool-result-missing", "trailing-short-entry", "unused-rule"}, quiet); diff != "" {
		t.Errorf("rules without findings (-want +got):\n%s", diff)
	}
	var bars []string
	for _, b := range p.FileChart.Bars {
		bars = append(bars, b.Title+" "+b.Count)
	}
	if diff := cmp.Diff([]string{"a.jsonl 50", "b.jsonl 10", "c.jsonl 1"}, bars); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}

	// The JSON report of the same run: same totals.
	var rep struct {
		Summary  finding.Summary
		Findings []finding.Finding
	}
	if err := json.Unmarshal([]byte(write(t, "json", fs, sum)), &rep); err != nil {
		t.Fatal(err)
	}
	perRule := map[string]int{}
	for _, f := range rep.Findings {
		perRule[f.Rule]++
	}
	pagePerRule := map[string]int{}
	for _, r := range p.Rules {
		pagePerRule[r.ID] = r.Total
	}
	if diff := cmp.Diff(perRule, pagePerRule); diff != "" {
		t.Errorf("per rule, JSON vs page (-json +page):\n%s", diff)
	}
	if p.Findings != len(rep.Findings) || p.Summary.Errors != rep.Summary.Errors || p.Summary.Warnings != rep.Summary.Warnings || p.Summary.Infos != rep.Summary.Infos {
		t.Errorf("page totals %d findings %+v; JSON %d findings %+v", p.Findings, p.Summary, len(rep.Findings), rep.Summary)
	}
}

// TestHTMLBoundedSample: the page keeps perRule findings of each rule in
// input order, says so, and its size does not grow with the findings.
func TestHTMLBoundedSample(t *testing.T) {
	sizes := map[int]int{}
	for _, n := range []int{400, 4000} {
		fs := manyFindings(n)
		sum := summaryOf(fs)
		h, page := htmlRun(t, Options{}, 3, nil, fs, sum)
		for i, tl := range h.tally {
			if len(tl.sample) > 3 {
				t.Errorf("n=%d: rule %d keeps %d findings; want at most 3", n, i, len(tl.sample))
			}
		}
		d := extractData(t, page)
		var got []string
		for _, f := range d.Findings {
			got = append(got, d.Rules[f.Rule].ID+" "+f.Message)
		}
		want := []string{"a a #0", "b b #0", "a a #1", "a a #2", "b b #2", "b b #4", "c c"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("n=%d: sample (-want +got):\n%s", n, diff)
		}
		note := fmt.Sprintf("This page holds the first 3 findings of each rule: 7 of %s.", formatCount(len(fs)))
		if !strings.Contains(page, note) {
			t.Errorf("n=%d: the page does not say %q", n, note)
		}
		// Only the digits of the counts differ between the two runs.
		sizes[n] = len(page) - len(strings.Join(regexp.MustCompile(`[0-9,]+`).FindAllString(page, -1), ""))
	}
	if sizes[400] != sizes[4000] {
		t.Errorf("page size grows with the findings: %v", sizes)
	}
	_, page := htmlRun(t, Options{}, 3, nil, manyFindings(2), summaryOf(manyFindings(2)))
	if !strings.Contains(page, "All 4 findings (the page holds up to 3 per rule).") {
		t.Error("a run within the sample does not say the table is complete")
	}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="chatlint-data">(.*?)</script>`)

func extractData(t *testing.T, page string) pageData {
	t.Helper()
	m := dataRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data element in the page")
	}
	var d pageData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("data: %v\n%s", err, m[1])
	}
	return d
}

// TestHTMLEscaping: text a record controls never becomes markup: not in
// the HTML, not in the SVG, and not out of the embedded JSON.
func TestHTMLEscaping(t *testing.T) {
	hostile := `</script><script>alert(1)</script><img src=x onerror=alert(2)> & "quoted"`
	fs := []finding.Finding{
		{Rule: "r<script>", Severity: finding.Error, Message: hostile, File: "dir/<b>x</b>.jsonl", Line: 1, Pack: "p", Path: "/a</script>", Record: "<!--"},
		{Rule: "plain", Severity: finding.Warning, Message: "bidi \u202e and \x1b[31m", File: "a.jsonl", Line: 2, Pack: "p"},
	}
	sum := summaryOf(fs)
	sum.Inputs = []finding.Input{{File: "<i>empty</i>.jsonl", Warning: finding.EmptyWarning}}
	_, page := htmlRun(t, Options{}, 10, statsFixture(), fs, sum)

	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script elements; want the data and the page's own", n)
	}
	for _, bad := range []string{"<img", "<b>x", "<i>empty", "alert('tool')</script>", "<!--", "\x1b", "\u202e"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	for _, good := range []string{"&lt;i&gt;empty&lt;/i&gt;.jsonl", "&lt;script&gt;alert(&#39;tool&#39;)&lt;/script&gt;", `r&lt;script&gt;`} {
		if !strings.Contains(page, good) {
			t.Errorf("the page lacks %q", good)
		}
	}
	d := extractData(t, page)
	got := []string{d.Findings[0].Message, d.Files[0], d.Findings[0].Path, d.Findings[0].Record, d.Rules[d.Findings[0].Rule].ID, d.Findings[1].Message}
	want := []string{hostile, "dir/<b>x</b>.jsonl", "/a</script>", "<!--", "r<script>", `bidi \u202e and \x1b[31m`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("data round trip (-want +got):\n%s", diff)
	}
	// A rule id that is not plain gets a numbered anchor.
	if d.Rules[d.Findings[0].Rule].Anchor != "rule-0" {
		t.Errorf("anchor %q", d.Rules[d.Findings[0].Rule].Anchor)
	}
}

// TestHTMLScriptAllowed: the Content-Security-Policy allows exactly the
// page's script, by hash: change the script and the hash follows.
func TestHTMLScriptAllowed(t *testing.T) {
	_, page := htmlRun(t, Options{}, 10, nil, nil, finding.Summary{Files: 1})
	m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no script")
	}
	sum := sha256.Sum256([]byte(m[1]))
	hash := "&#39;sha256-" + strings.ReplaceAll(base64.StdEncoding.EncodeToString(sum[:]), "+", "&#43;") + "&#39;"
	if !strings.Contains(page, "script-src "+hash) || !strings.Contains(page, "default-src &#39;none&#39;") {
		t.Errorf("the CSP does not allow the script's hash %s:\n%s", hash, page[:600])
	}
}

func TestHTMLVerdict(t *testing.T) {
	for _, tt := range []struct {
		failOn finding.Severity
		sum    finding.Summary
		want   verdict
	}{
		{finding.Error, finding.Summary{Errors: 1}, verdict{true, "findings at or above --fail-on error"}},
		{finding.Error, finding.Summary{Warnings: 3}, verdict{false, "nothing at or above --fail-on error"}},
		{finding.Warning, finding.Summary{Warnings: 3}, verdict{true, "findings at or above --fail-on warning"}},
		{NoFailure, finding.Summary{Errors: 3}, verdict{false, "--fail-on never"}},
		{NoFailure, finding.Summary{Inputs: []finding.Input{{File: "a", Error: "open a: permission denied"}, {File: "b"}}}, verdict{true, "1 input could not be read"}},
	} {
		w, _ := NewWith("html", &bytes.Buffer{}, Options{FailOn: tt.failOn})
		if got := w.(*htmlWriter).verdict(tt.sum); got != tt.want {
			t.Errorf("fail on %v, %+v: %+v; want %+v", tt.failOn, tt.sum, got, tt.want)
		}
	}
}

// TestHTMLStats: the statistics section is drawn from what it is handed,
// and left out without it.
func TestHTMLStats(t *testing.T) {
	st := statsFixture()
	_, page := htmlRun(t, Options{}, 10, st, nil, finding.Summary{Files: 1})
	v := newStatsView(st)
	if len(v.TokenChart.Bars) != len(st.Tokens) || v.TokenChart.Limit == nil {
		t.Fatalf("token chart %+v", v.TokenChart)
	}
	// The limit sits at 16384 on an axis from 0 to 18432.
	wantX := 664 // 60 + 680 × 16384/18432, rounded
	if last := v.TokenChart.Bars[len(v.TokenChart.Bars)-1]; !last.Over || v.TokenChart.Bars[len(v.TokenChart.Bars)-2].Over {
		t.Error("only the bucket above the limit is marked over it")
	}
	if v.TokenChart.Limit.X != wantX {
		t.Errorf("limit line at x=%d; want %d", v.TokenChart.Limit.X, wantX)
	}
	for _, want := range []string{`id="stats"`, `id="token-chart"`, `class="limit"`, "limit 16,384", `id="count-over-limit">4<`, "Messages per role", "Tool calls per tool", "gpt-4o-mini"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	_, page = htmlRun(t, Options{}, 10, nil, nil, finding.Summary{Files: 1})
	if strings.Contains(page, `id="stats"`) {
		t.Error("a page without stats has a statistics section")
	}
}

func TestLayoutBars(t *testing.T) {
	c := layoutBars([]barItem{
		{Label: "big", Parts: []barPart{{N: 1000000, Class: "e"}, {N: 0, Class: "w"}}},
		{Label: "one", Parts: []barPart{{N: 1, Class: "e"}}},
		{Label: strings.Repeat("x", 50), Parts: []barPart{{N: 500000, Class: "e"}, {N: 500000, Class: "w"}}},
	})
	span := chartWidth - chartLabelW - chartCountW
	got := [][]segView{c.Bars[0].Segs, c.Bars[1].Segs, c.Bars[2].Segs}
	want := [][]segView{
		{{X: chartLabelW, W: span, Class: "e"}},
		{{X: chartLabelW, W: 2, Class: "e"}}, // one beside a million stays visible
		{{X: chartLabelW, W: span / 2, Class: "e"}, {X: chartLabelW + span/2, W: span / 2, Class: "w"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("segments (-want +got):\n%s", diff)
	}
	if c.Bars[0].Count != "1,000,000" || c.Bars[2].Label != strings.Repeat("x", maxLabel-1)+"…" || c.Bars[2].Title != strings.Repeat("x", 50) {
		t.Errorf("labels %q %q", c.Bars[0].Count, c.Bars[2].Label)
	}
}

func TestFormatCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := formatCount(n); got != want {
			t.Errorf("formatCount(%d) = %q; want %q", n, got, want)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	h := layoutHistogram([]Bucket{{0, 2048, 1}, {2048, 18432, 1}}, 16384)
	var got []string
	for _, tk := range h.XTicks {
		got = append(got, tk.Label)
	}
	if diff := cmp.Diff([]string{"0", "5,000", "10,000", "15,000"}, got); diff != "" {
		t.Errorf("ticks (-want +got):\n%s", diff)
	}
	for d, want := range map[int]int{1: 1, 3: 5, 7: 10, 11: 20, 3686: 5000, 0: 1} {
		if got := niceStep(d); got != want {
			t.Errorf("niceStep(%d) = %d; want %d", d, got, want)
		}
	}
}

func TestFileLabels(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{[]string{"/data/a/x.jsonl", "/data/b/y.jsonl"}, "/data/"},
		{[]string{"/data/a/x.jsonl"}, "/data/a/"},
		{[]string{"x.jsonl", "/data/y.jsonl"}, ""},
		{[]string{"data/ab.jsonl", "data/a/c.jsonl"}, "data/"},
		{nil, ""},
	} {
		if got := commonDir(tt.names); got != tt.want {
			t.Errorf("commonDir(%q) = %q; want %q", tt.names, got, tt.want)
		}
	}
	if got := tail("agent-sessions/openclaw/session-0001.jsonl", 20); got != "…/session-0001.jsonl" {
		t.Errorf("tail: %q", got)
	}
}
