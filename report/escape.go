package report

// EscapeMarkdown is s as the markdown report writes text: the characters
// markdown would read as formatting escaped. A redactor uses it to know a
// secret's markdown spelling.
func EscapeMarkdown(s string) string { return mdEscape(s) }
