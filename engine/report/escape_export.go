package report

// EscapeControls writes the control characters of s (C0, C1, DEL, line and
// paragraph separators, bidirectional overrides, invalid UTF-8) as Go
// escapes and leaves the rest as it is: for names and values that reach a
// terminal or a line-based report outside a rule message (a file name, a
// session id), where Clean's shortening would change what is shown.
func EscapeControls(s string) string { return escapeControls(s) }
