package expr

import (
	"strings"
)

// lipsumWords are the words lipsum() draws from: the Latin of the classic
// placeholder text (Cicero's de Finibus), tender's own selection.
var lipsumWords = strings.Fields(`lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod
tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation
ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit
esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia
deserunt mollit anim id est laborum perspiciatis unde omnis iste natus error voluptatem accusantium
doloremque laudantium totam rem aperiam eaque ipsa quae ab illo inventore veritatis quasi architecto
beatae vitae dicta explicabo nemo ipsam quia voluptas aspernatur aut odit fugit consequuntur magni
dolores eos ratione sequi nesciunt neque porro quisquam dolorem adipisci numquam eius modi tempora
incidunt magnam quaerat`)

// lipsum is Jinja's lipsum(n=5, html=True, min=20, max=100): n paragraphs
// of min to max-1 random words in sentences that start with a capital and
// end with a full stop, some words followed by a comma; with html each
// paragraph is a <p>, else paragraphs are separated by a blank line.
func lipsum(args []any, kw map[string]any) (any, error) {
	n, ok1 := integer(argOr(args, kw, 0, "n", 5))
	html := Truthy(argOr(args, kw, 1, "html", true))
	lo, ok2 := integer(argOr(args, kw, 2, "min", 20))
	hi, ok3 := integer(argOr(args, kw, 3, "max", 100))
	if !ok1 || !ok2 || !ok3 {
		return nil, errorf("lipsum() needs integers for n, min and max")
	}
	if lo >= hi {
		return nil, errorf("empty range for randrange() (%d, %d, %d)", lo, hi, hi-lo)
	}
	if n < 0 || n > 1000 || hi > 10000 {
		return nil, errorf("lipsum: too many words asked for")
	}
	var paras []string
	for range n {
		count := lo + randInt(hi-lo, nil)
		var b strings.Builder
		capital, sinceComma, sinceStop := true, 0, 0
		prev := ""
		for i := 0; i < count; i++ {
			w := lipsumWords[randInt(len(lipsumWords), nil)]
			for w == prev {
				w = lipsumWords[randInt(len(lipsumWords), nil)]
			}
			prev = w
			if capital {
				w = strings.ToUpper(w[:1]) + w[1:]
				capital = false
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			sinceComma++
			sinceStop++
			if sinceComma > 2+randInt(6, nil) {
				b.WriteByte(',')
				sinceComma = 0
			}
			if sinceStop > 10+randInt(10, nil) {
				b.WriteByte('.')
				sinceComma, sinceStop, capital = 0, 0, true
			}
		}
		p := strings.TrimRight(b.String(), ",")
		if !strings.HasSuffix(p, ".") {
			p += "."
		}
		if html {
			p = "<p>" + p + "</p>"
		}
		paras = append(paras, p)
	}
	if html {
		return markup(strings.Join(paras, "\n")), nil
	}
	return strings.Join(paras, "\n\n"), nil
}
