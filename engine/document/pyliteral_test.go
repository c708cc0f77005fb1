package document

import "testing"

func TestPyLiteralJSON(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{'name': 'f', 'arguments': {'x': 1}}`, `{"name": "f", "arguments": {"x": 1}}`, true},
		{`{'a': True, 'b': False, 'c': None, 'd': (1, 2),}`, `{"a": true, "b": false, "c": null, "d": [1, 2]}`, true},
		{`{'q': "it's", 'p': 'say "hi"\n'}`, `{"q": "it's", "p": "say \"hi\"\n"}`, true},
		{`{'city': 'Zürich'}`, `{"city": "Zürich"}`, true},
		{`{'f': open('x')}`, "", false},
		{`{'unterminated: 1}`, "", false},
		{`not a literal at all`, "", false},
	}
	for _, tc := range tests {
		got, ok := pyLiteralJSON(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("pyLiteralJSON(%s) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
