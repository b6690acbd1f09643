// Command mksamples writes vault files encrypted by tender, for gen.sh to
// check with ansible-vault. Run by gen.sh only.
package main

import (
	"fmt"
	"os"

	"github.com/tender-sh/tender/vault"
)

func main() {
	plain, err := os.ReadFile("plain.txt")
	if err != nil {
		fail(err)
	}
	for _, s := range []struct{ out, pw, id string }{
		{"tender-1.1.vault", "pw-default", ""},
		{"tender-1.2.vault", "pw-dev", "dev"},
	} {
		data, err := vault.Encrypt(plain, []byte(s.pw), s.id)
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(s.out, data, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mksamples:", err)
	os.Exit(1)
}
