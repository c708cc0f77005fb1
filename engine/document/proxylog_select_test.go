package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProxyLogSelectionKeeps(t *testing.T) {
	type got struct {
		Selected  []bool
		Kept, Max int
		Truncated bool
	}
	tests := []struct {
		name   string
		counts []int
		want   got
	}{
		{"none", nil, got{}},
		{"growing", []int{1, 3, 5}, got{Selected: []bool{true, true, true}, Kept: 3, Max: 5}},
		{"equal counts: the last wins", []int{2, 4, 4}, got{Selected: []bool{true, true, true}, Kept: 3, Max: 4}},
		{"trailing shorter entries cut", []int{2, 4, 4, 1, 3}, got{Selected: []bool{true, true, true, false, false}, Kept: 3, Max: 4, Truncated: true}},
		{"empty requests", []int{0, 0}, got{Selected: []bool{true, true}, Kept: 2}},
		{"a dip inside is kept", []int{3, 1, 3}, got{Selected: []bool{true, false, true}, Kept: 3, Max: 3}},
	}
	for _, tt := range tests {
		var s ProxyLogSelection
		var g got
		for _, c := range tt.counts {
			g.Selected = append(g.Selected, s.Add(c))
		}
		g.Kept, g.Max, g.Truncated = s.Kept(), s.Max(), s.Truncated()
		if diff := cmp.Diff(tt.want, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
