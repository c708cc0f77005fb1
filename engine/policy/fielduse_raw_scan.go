package policy

// The raw analysis (fielduse_raw.go) looks at every key and scalar of every
// YAML rule file at start-up, which a regular expression made a tenth of a
// one-record check. These scanners find the same words and paths by hand;
// TestRawScannersMatchRegexps holds them to the expressions they replace.

// The byte classes are fielduse_yaml.go's (isWordByte, isSpace).

// hasRawWord reports whether s holds the word raw, not inside a longer
// word: (^|[^A-Za-z0-9_])raw([^A-Za-z0-9_]|$).
func hasRawWord[T string | []byte](s T) bool {
	for i := 0; i+3 <= len(s); i++ {
		if s[i] == 'r' && s[i+1] == 'a' && s[i+2] == 'w' &&
			(i == 0 || !isWordByte(s[i-1])) && (i+3 == len(s) || !isWordByte(s[i+3])) {
			return true
		}
	}
	return false
}

// nextPathTok finds the first path as written at or after from, as the
// expression \$?\w+(?:\[\*\])?(?:\.\$?\w+(?:\[\*\])?)* (\w ASCII) finds it
// leftmost-first: a name, $ before it when a name follows, [*] after it,
// then more of them after dots. It returns the match's bounds, or -1, -1.
func nextPathTok(s string, from int) (start, end int) {
	for i := from; i < len(s); i++ {
		if j := pathSegEnd(s, i); j > i {
			end = j
			for end < len(s) && s[end] == '.' {
				k := pathSegEnd(s, end+1)
				if k <= end+1 {
					break
				}
				end = k
			}
			return i, end
		}
	}
	return -1, -1
}

// pathSegEnd is the end of the segment \$?\w+(?:\[\*\])? at i, or i when
// none starts there.
func pathSegEnd(s string, i int) int {
	j := i
	if j < len(s) && s[j] == '$' {
		j++
	}
	k := j
	for k < len(s) && isWordByte(s[k]) {
		k++
	}
	if k == j {
		return i
	}
	if k+3 <= len(s) && s[k] == '[' && s[k+1] == '*' && s[k+2] == ']' {
		k += 3
	}
	return k
}

// endsTypeHead reports whether s ends as `{{ type ` does before a path:
// \{\{\s*type\s+$.
func endsTypeHead(s string) bool {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	if i == len(s) || i < 4 || s[i-4:i] != "type" {
		return false
	}
	i -= 4
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return i >= 2 && s[i-2:i] == "{{"
}

// startsTypeTail reports whether s starts as the `}}` after a path does:
// ^\s*\}\}.
func startsTypeTail(s string) bool {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i+2 <= len(s) && s[i:i+2] == "}}"
}
