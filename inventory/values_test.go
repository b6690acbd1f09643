package inventory

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestINIValues checks iniValue against the ini plugin's _parse_value
// (Python's ast.literal_eval, falling back to the text) for every line of
// testdata/values.txt, recorded by gen.sh in values.jsonl as the
// json.dumps(sort_keys=True, indent=4) text of Ansible's value. Values that
// Ansible itself cannot print as JSON (complex numbers, sets, Ellipsis,
// dicts with keys of mixed types: "!TypeError") are tender's deliberate
// differences; tender keeps the text or converts the keys, and those lines
// only check that iniValue does not fail.
func TestINIValues(t *testing.T) {
	n := 0
	forJSONL(t, "testdata/values.jsonl", func(in string, out json.RawMessage) {
		var want string
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		got, err := JSON(iniValue(in))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			return
		}
		n++
		if strings.HasPrefix(want, "!") {
			return
		}
		if string(got) != want {
			t.Errorf("value %q:\n got %s\nwant %s", in, got, want)
		}
	})
	if n < 100 {
		t.Errorf("only %d value cases", n)
	}
}

// TestShlex checks shlexSplit against ansible's shlex_split(line,
// comments=True) on testdata/shlex.txt (recorded in shlex.jsonl: the list
// of words, or the ValueError's message).
func TestShlex(t *testing.T) {
	forJSONL(t, "testdata/shlex.jsonl", func(in string, out json.RawMessage) {
		var words []string
		var msg string
		if json.Unmarshal(out, &words) != nil {
			if err := json.Unmarshal(out, &msg); err != nil {
				t.Fatal(err)
			}
		}
		toks, err := shlexSplit(in)
		if msg != "" {
			if err == nil || err.Error() != msg {
				t.Errorf("shlex %q: got %v, want error %q", in, err, msg)
			}
			return
		}
		if err != nil {
			t.Errorf("shlex %q: %v", in, err)
			return
		}
		got := []string{}
		for _, tk := range toks {
			got = append(got, tk.text)
		}
		if strings.Join(got, "\x00") != strings.Join(words, "\x00") || len(got) != len(words) {
			t.Errorf("shlex %q:\n got %q\nwant %q", in, got, words)
		}
	})
}

func forJSONL(t *testing.T, file string, f func(in string, out json.RawMessage)) {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			In  string          `json:"in"`
			Out json.RawMessage `json:"out"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		f(rec.In, rec.Out)
	}
}
