package report

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/internal/browser/browsertest"
)

// hostileMessage would run script, load an image and break out of the data
// element if the page put it anywhere as markup.
const hostileMessage = `</script><script>window.__pwned = 1</script><img src="http://127.0.0.1:9/x.png" onerror="window.__pwned = 2"> <b>bold</b>`

// TestHTMLInBrowser opens a report in headless Chromium and looks at it as
// a person would: charts drawn, statistics shown, the table filtered and
// paged, untrusted text shown as text, nothing fetched and no error logged.
func TestHTMLInBrowser(t *testing.T) {
	var fs []finding.Finding
	for i := range 120 {
		fs = append(fs, finding.Finding{Rule: "tool-result-missing", Severity: finding.Error, Message: fmt.Sprintf("call c%d has no result", i),
			File: fmt.Sprintf("data/part-%d.jsonl", i%3), Line: i + 1, Pack: "integrity", Path: "/messages/2"})
	}
	for i := range 30 {
		fs = append(fs, finding.Finding{Rule: "trailing-short-entry", Severity: finding.Warning, Message: "last entry is short",
			File: "data/part-9.jsonl", Line: i + 1, Pack: "integrity"})
	}
	fs = append(fs, finding.Finding{Rule: "hostile", Severity: finding.Info, Message: hostileMessage, File: "data/<i>x</i>.jsonl", Line: 7, Pack: "team"})
	sum := summaryOf(fs)
	_, page := htmlRun(t, Options{Rules: rules(), FailOn: finding.Error}, DefaultHTMLSample, statsFixture(), fs, sum)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}

	s := browsertest.Open(t, path, 30*time.Second)
	eval := func(expr string) string { t.Helper(); return browsertest.Eval[string](t, s, expr) }
	num := func(expr string) int { t.Helper(); return browsertest.Eval[int](t, s, expr) }

	// Charts: every bar drawn with a width, the limit line drawn.
	if n := num(`[...document.querySelectorAll("#per-rule svg rect")].filter(r => r.getBBox().width > 0).length`); n != 3 {
		t.Errorf("%d bars drawn in the per-rule chart; want 3", n)
	}
	if n := num(`[...document.querySelectorAll("#per-file svg rect")].filter(r => r.getBBox().width > 0).length`); n != 5 {
		t.Errorf("%d bars drawn in the per-file chart; want 5", n)
	}
	if n := num(`[...document.querySelectorAll("#token-chart rect.bar")].filter(r => r.getBBox().height > 0).length`); n != len(statsFixture().Tokens) {
		t.Errorf("%d histogram bars drawn; want %d", n, len(statsFixture().Tokens))
	}
	if h := num(`document.querySelector("#token-chart line.limit").getBBox().height`); h < 100 {
		t.Errorf("the limit line is %d high", h)
	}
	if got := eval(`document.querySelector("#token-chart .limit-label").textContent`); got != "limit 16,384" {
		t.Errorf("limit label %q", got)
	}
	if n := num(`document.querySelectorAll("#stats .two svg rect").length`); n != 4+3 {
		t.Errorf("%d bars for roles and tools; want 7", n)
	}
	// Every bar label fits left of its bars: none starts outside its chart.
	if clipped := browsertest.Eval[[]string](t, s, `[...document.querySelectorAll("svg text")].filter(e => e.getBBox().x < 0).map(e => e.textContent)`); len(clipped) > 0 {
		t.Errorf("labels cut off at the chart's left edge: %q", clipped)
	}

	// Untrusted text is shown as text and ran nothing.
	if got := eval(`String(window.__pwned)`); got != "undefined" {
		t.Errorf("the finding's markup ran: window.__pwned = %s", got)
	}
	table := func() []string {
		t.Helper()
		return browsertest.Eval[[]string](t, s, `[...document.querySelectorAll("#findings-table tbody tr")].map(r => [...r.cells].map(c => c.textContent).join(" | "))`)
	}
	setFilter := func(id, value string) {
		t.Helper()
		eval(fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event(e.tagName === "SELECT" ? "change" : "input")); return ""; })()`, id, value))
	}
	setFilter("filter-rule", "hostile")
	want := []string{"data/<i>x</i>.jsonl:7 | info | hostile | " + hostileMessage + " | "}
	if diff := cmp.Diff(want, table()); diff != "" {
		t.Errorf("the hostile finding's row (-want +got):\n%s", diff)
	}
	if n := num(`document.querySelectorAll("#findings-table img, #findings-table b, #findings-table script, #findings-table i").length`); n != 0 {
		t.Errorf("%d elements made from a finding's text", n)
	}

	// Filters and paging.
	setFilter("filter-rule", "")
	if got := eval(`document.getElementById("page-info").textContent`); got != "rows 1–50 of 151, page 1 of 4" {
		t.Errorf("page info %q", got)
	}
	eval(`(() => { document.getElementById("next").click(); return ""; })()`)
	if got := eval(`document.getElementById("page-info").textContent`); got != "rows 51–100 of 151, page 2 of 4" {
		t.Errorf("after next: %q", got)
	}
	setFilter("filter-severity", "warning")
	if got, rows := eval(`document.getElementById("match-count").textContent`), table(); got != "30 of 151 shown findings match" || len(rows) != 30 {
		t.Errorf("severity warning: %q, %d rows", got, len(rows))
	}
	setFilter("filter-severity", "")
	setFilter("filter-file", "part-1")
	rows := table()
	if len(rows) != 40 || rows[0] != "data/part-1.jsonl:2 | error | tool-result-missing | call c1 has no result | /messages/2" {
		t.Errorf("file part-1: %d rows, first %q", len(rows), rows[0])
	}
	setFilter("filter-file", "")
	// A file's bar filters the table on it.
	eval(`(() => { document.querySelector('#per-file a[data-file="data/part-9.jsonl"]').dispatchEvent(new MouseEvent("click", {bubbles: true})); return ""; })()`)
	if got := eval(`document.getElementById("filter-file").value + " " + document.getElementById("match-count").textContent`); got != "data/part-9.jsonl 30 of 151 shown findings match" {
		t.Errorf("file bar: %q", got)
	}
	// A rule's "show in the table" link filters on it.
	eval(`(() => { document.querySelector('#rule-trailing-short-entry .show-rule').click(); return ""; })()`)
	if got := eval(`document.getElementById("filter-rule").value + " " + document.getElementById("match-count").textContent`); got != "trailing-short-entry 30 of 151 shown findings match" {
		t.Errorf("show in the table: %q", got)
	}
	browsertest.Clean(t, s)
}
