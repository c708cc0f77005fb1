package report

// statsFixture is what a stats command would hand the HTML report: it
// stands in for `chatlint stats` until that exists, in the unit and the
// browser tests.
func statsFixture() *Stats {
	return &Stats{
		Examples:   1200,
		Tokenizer:  "cl100k_base",
		Model:      "gpt-4o-mini",
		TokenLimit: 16384,
		Tokens: []Bucket{
			{0, 2048, 310}, {2048, 4096, 420}, {4096, 6144, 250}, {6144, 8192, 120},
			{8192, 10240, 50}, {10240, 12288, 28}, {12288, 14336, 12}, {14336, 16384, 6}, {16384, 18432, 4},
		},
		OverLimit: 4,
		Min:       112, Median: 3610, P95: 9875, Max: 18120,
		Roles: []Count{{"assistant", 5210}, {"user", 4980}, {"tool", 2300}, {"system", 1200}},
		Tools: []Count{{"mcp__synthetic__lookup_weather", 1400}, {"get_weather", 610}, {"<script>alert('tool')</script>", 290}},
	}
}
