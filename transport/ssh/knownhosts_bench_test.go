package ssh

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xssh "golang.org/x/crypto/ssh"
)

// BenchmarkKnownHostsCheck: one host's check against a known_hosts file
// of 10,000 hosts (one line each, as accept-new writes them): the host
// key algorithms to offer, then the key's check, as every connection
// does. Per operation: one host.
func BenchmarkKnownHostsCheck(b *testing.B) {
	const hosts = 10000
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	key, err := xssh.NewPublicKey(pub)
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	line := strings.TrimSpace(string(xssh.MarshalAuthorizedKey(key)))
	for i := range hosts {
		fmt.Fprintf(&sb, "[127.0.0.1]:%d %s\n", 20000+i, line)
	}
	file := filepath.Join(b.TempDir(), "known_hosts")
	if err := os.WriteFile(file, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	d := &Dialer{}
	h := &hop{knownHosts: []string{file}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		port := 20000 + i%hosts
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		cb, algos, err := d.hostKeyCallback(h, addr)
		if err != nil || len(algos) == 0 {
			b.Fatal(err, algos)
		}
		if err := cb(addr, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}, key); err != nil {
			b.Fatal(err)
		}
	}
}
