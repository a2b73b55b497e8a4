package ui

import (
	"strings"
)

// Fyne's Markdown renderer knows no tables: it shows their rows as raw
// lines of pipes. readableMarkdown turns each table into a list, one item
// per row, the first cell bold and the others named by their column.
func readableMarkdown(md string) string {
	lines := strings.Split(md, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if !isTableRow(lines[i]) || i+1 >= len(lines) || !isTableRule(lines[i+1]) {
			out = append(out, lines[i])
			continue
		}
		head := tableCells(lines[i])
		i += 2
		for ; i < len(lines) && isTableRow(lines[i]); i++ {
			cells := tableCells(lines[i])
			var b strings.Builder
			b.WriteString("- ")
			for j, c := range cells {
				switch {
				case c == "":
					continue
				case j == 0:
					b.WriteString("**" + strings.Trim(c, "*") + "**")
				default:
					if b.Len() > 2 {
						b.WriteString(" — ")
					}
					if j < len(head) && head[j] != "" {
						b.WriteString(head[j] + ": ")
					}
					b.WriteString(c)
				}
			}
			out = append(out, b.String())
		}
		i-- // the line after the table is read by the loop
	}
	return strings.Join(out, "\n")
}

func isTableRow(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "|") && strings.Count(l, "|") >= 2
}

// isTableRule is a table's second line: |---|:--:|.
func isTableRule(l string) bool {
	if !isTableRow(l) {
		return false
	}
	return strings.Trim(strings.TrimSpace(l), "|-: ") == ""
}

// tableCells splits a row at the pipes that are not escaped (\|).
func tableCells(l string) []string {
	l = strings.TrimSpace(l)
	l = strings.TrimPrefix(strings.TrimSuffix(l, "|"), "|")
	l = strings.ReplaceAll(l, `\|`, "\x00")
	var cells []string
	for _, c := range strings.Split(l, "|") {
		cells = append(cells, strings.ReplaceAll(strings.TrimSpace(c), "\x00", "|"))
	}
	return cells
}
