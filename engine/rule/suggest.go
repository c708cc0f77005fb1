package rule

import "strings"

// Suggest names the rule ids closest to a mistyped one, as a phrase to
// append to a message ("; did you mean a, b?"), or "" when none is close.
func Suggest(id string, rules []Rule) string {
	var near []string
	for _, r := range rules {
		if strings.Contains(r.ID, id) || strings.Contains(id, r.ID) || levenshtein(id, r.ID) <= 3 {
			near = append(near, r.ID)
		}
	}
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
