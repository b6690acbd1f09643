package vault

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// bigBody is vault text of about n bytes whose body is well-formed hex
// all the way (it decodes to "aaaa...": hex digits of a salt that never
// ends), followed by tail.
func bigBody(n int, tail string) []byte {
	line := strings.Repeat("61", 40) + "\n"
	var b bytes.Buffer
	b.WriteString("$ANSIBLE_VAULT;1.1;AES256\n")
	for b.Len() < n {
		b.WriteString(line)
	}
	b.WriteString(tail)
	return b.Bytes()
}

// TestReadFileRefusesOverLimit: a vault-encrypted file over MaxSize (the
// default one: the file is sparse) is refused before its body is read,
// naming the file and the limit; a plain file of the same size is not
// vault data and is read whole.
func TestReadFileRefusesOverLimit(t *testing.T) {
	if MaxSize != 64<<20 {
		t.Fatalf("MaxSize is %d, the documented default is 64 MiB", MaxSize)
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.vault")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("$ANSIBLE_VAULT;1.1;AES256\n")
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(big)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "64 MiB") {
		t.Fatalf("a vault file over the limit: %v", err)
	}
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x: 1\n"), 0o600)
	if b, err := ReadFile(plain); err != nil || string(b) != "x: 1\n" {
		t.Errorf("plain file: %q %v", b, err)
	}
}

// TestReadStopsAtFirstBadByte: malformed vault text is refused having
// read at most a chunk past its first bad byte, whether the header, the
// hex text or its decoding is at fault; a stream longer than MaxSize
// (its size unknown) is refused once MaxSize is passed.
func TestReadStopsAtFirstBadByte(t *testing.T) {
	const total = 8 << 20
	for _, c := range []struct {
		name, head, want string
	}{
		{"bad header", "$ANSIBLE_VAULT;1.1\n", "has no version or cipher"},
		{"non-hex byte", "$ANSIBLE_VAULT;1.1;AES256\n61zz\n", "invalid byte: U+007A 'z'"},
		{"space inside a line", "$ANSIBLE_VAULT;1.1;AES256\n61 61\n", "invalid byte: U+0020 ' '"},
		{"decoded body not hex", "$ANSIBLE_VAULT;1.1;AES256\n7a7a\n", "invalid byte: U+007A 'z'"},
		{"non-ASCII", "$ANSIBLE_VAULT;1.1;AES256\n\xc3\xa9\n", "not vault encrypted data"},
		{"header too long", "$ANSIBLE_VAULT;1.2;AES256;" + strings.Repeat("x", maxHeader), "header line is longer"},
	} {
		data := append([]byte(c.head), bigBody(total, "")...)
		r := &countingReader{r: bytes.NewReader(data)}
		_, err := Read(r, "in.vault")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "in.vault") {
			t.Errorf("%s: %v, want %q naming in.vault", c.name, err, c.want)
		}
		if r.n > int64(len(c.head))+2*chunk {
			t.Errorf("%s: read %d bytes of %d before refusing", c.name, r.n, len(data))
		}
	}
	defer func(m int64) { MaxSize = m }(MaxSize)
	MaxSize = 1 << 20
	r := &countingReader{r: bytes.NewReader(bigBody(total, ""))}
	if _, err := Read(r, "stdin"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("a stream over the limit: %v", err)
	}
	if r.n > MaxSize+2*chunk {
		t.Errorf("read %d bytes of a stream over a limit of %d", r.n, MaxSize)
	}
}

// TestReadFileWellFormed: every recorded vault file reads back as it is,
// from the OS and from an fs.FS, and still decrypts.
func TestReadFileWellFormed(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, f := range []string{"ansible-1.1.vault", "ansible-1.2.vault", "ansible-empty.vault", "tender-1.2.vault"} {
		want := read(t, f)
		got, err := ReadFile(filepath.Join("testdata", f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v", f, err)
		}
		fsys[f] = &fstest.MapFile{Data: want}
		if got, err := ReadFS(fsys, f); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s in an fs.FS: %v", f, err)
		}
	}
	fsys["bad.vault"] = &fstest.MapFile{Data: []byte("$ANSIBLE_VAULT;1.1;AES256\n6g\n")}
	if _, err := ReadFS(fsys, "bad.vault"); err == nil || !strings.Contains(err.Error(), "vault format error in bad.vault") {
		t.Errorf("malformed file in an fs.FS: %v", err)
	}
}

// TestParseBounded: Parse refuses vault text over MaxSize, so a !vault
// value or data read some other way is bounded too.
func TestParseBounded(t *testing.T) {
	defer func(m int64) { MaxSize = m }(MaxSize)
	MaxSize = 4096
	data, err := Encrypt(bytes.Repeat([]byte("x"), 2000), []byte("pw"), "")
	if err != nil {
		t.Fatal(err)
	}
	var k Keyring
	k.Add("", []byte("pw"))
	if _, err := k.Decrypt(data, "v.yml"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "v.yml") || !strings.Contains(err.Error(), "4 KiB") {
		t.Errorf("over the limit: %v", err)
	}
	MaxSize = 1 << 20
	if plain, err := k.Decrypt(data, "v.yml"); err != nil || len(plain) != 2000 {
		t.Errorf("under the limit: %d bytes, %v", len(plain), err)
	}
}

// refParse decodes vault text the plain way: every body line trimmed,
// joined, unhexed, split in three, each part unhexed.
func refParse(data []byte) (salt, sum, ct []byte, ok bool) {
	if !IsEncrypted(data) {
		return nil, nil, nil, false
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(strings.Split(strings.TrimSpace(lines[0]), ";")) < 3 || len(lines[0]) > maxHeader {
		return nil, nil, nil, false
	}
	var body strings.Builder
	for _, l := range lines[1:] {
		body.WriteString(strings.TrimSpace(l))
	}
	inner, err := hex.DecodeString(body.String())
	parts := bytes.SplitN(inner, []byte("\n"), 3)
	if err != nil || len(parts) != 3 {
		return nil, nil, nil, false
	}
	salt, err1 := hex.DecodeString(string(parts[0]))
	sum, err2 := hex.DecodeString(string(parts[1]))
	ct, err3 := hex.DecodeString(string(parts[2]))
	return salt, sum, ct, errors.Join(err1, err2, err3) == nil
}

// FuzzParse checks the streaming decoder against refParse, and that
// reading a chunk at a time agrees with Parse.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"ansible-1.1.vault", "ansible-1.2.vault", "ansible-empty.vault"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(b)
		f.Add(bytes.ReplaceAll(b, []byte("\n"), []byte("  \r\n\t")))
	}
	f.Add([]byte("$ANSIBLE_VAULT;1.1;AES256\n61 62\n"))
	f.Add([]byte("$ANSIBLE_VAULT;1.1;AES256\n6\n1\n0a0a30\n"))
	f.Add([]byte("$ANSIBLE_VAULT;1.1;AES256"))
	f.Fuzz(func(t *testing.T, data []byte) {
		salt, sum, ct, ok := refParse(data)
		env, err := Parse(data)
		got := err == nil && env.err == nil
		if got != ok {
			t.Fatalf("Parse: ok %v (%v), the plain decoding: ok %v", got, errors.Join(err, envErr(env)), ok)
		}
		if ok && (!bytes.Equal(env.salt, salt) || !bytes.Equal(env.sum, sum) || !bytes.Equal(env.ciphertext, ct)) {
			t.Fatalf("Parse decoded %x %x %x, want %x %x %x", env.salt, env.sum, env.ciphertext, salt, sum, ct)
		}
		if _, rerr := Read(bytes.NewReader(data), "in"); (rerr == nil) != ok && bytes.HasPrefix(data, []byte(Header+";")) {
			t.Fatalf("Read: %v, the plain decoding: ok %v", rerr, ok)
		}
	})
}

func envErr(e *Envelope) error {
	if e == nil {
		return nil
	}
	return e.err
}

func BenchmarkParse(b *testing.B) {
	data, err := Encrypt(bytes.Repeat([]byte("x"), 4<<20), []byte("pw"), "")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPasswordSourcesBounded: a password "file" that never ends and a
// script that never stops printing are refused at MaxPassword, not read
// until memory runs out.
func TestPasswordSourcesBounded(t *testing.T) {
	ctx := context.Background()
	if _, err := ReadPassword(ctx, "/dev/zero", ""); err == nil || !strings.Contains(err.Error(), "/dev/zero is larger than 1 MiB") {
		t.Errorf("/dev/zero as a password file: %v", err)
	}
	script := filepath.Join(t.TempDir(), "pass.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nexec yes\n"), 0o755)
	if _, err := ReadPassword(ctx, script, ""); err == nil || !strings.Contains(err.Error(), "printed more than 1 MiB") {
		t.Errorf("an endless script: %v", err)
	}
}
