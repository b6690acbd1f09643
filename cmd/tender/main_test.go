package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"tender"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 || out != "tender "+version+"\n" {
		t.Fatalf("version: code %d, output %q", code, out)
	}
}

func TestUnknownCommandFails(t *testing.T) {
	for _, args := range [][]string{{"no-such-command"}, {"--bogus-flag"}} {
		code, _, errOut := runCLI(t, args...)
		if code == 0 {
			t.Errorf("%v must fail, got code 0", args)
		}
		if !strings.Contains(errOut, strings.TrimLeft(args[0], "-")) {
			t.Errorf("%v: stderr should name it: %q", args, errOut)
		}
	}
}
