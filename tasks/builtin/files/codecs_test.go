package files

import (
	"encoding/hex"
	"testing"
)

// TestCodecFor: the codecs Python names encode as Python's do (the bytes
// below are Python 3.11's "café €".encode(name)), and what a codec has no
// place for fails with Python's message.
func TestCodecFor(t *testing.T) {
	for name, want := range map[string]string{
		"utf-8": "636166c3a920e282ac", "cp1252": "636166e92080", "windows_1252": "636166e92080",
		"utf-16": "fffe630061006600e9002000ac20", "utf_16_le": "630061006600e9002000ac20",
		"UTF-16-BE": "00630061006600e9002020ac", "iso8859_15": "636166e920a4", "ISO-8859-15": "636166e920a4",
		"cp1250": "636166e92080",
	} {
		c, ok := codecFor(name)
		if !ok {
			t.Errorf("%s: no codec", name)
			continue
		}
		b, err := c.encode([]byte("café €"))
		if err != nil || hex.EncodeToString(b) != want {
			t.Errorf("%s: %x, %v; want %s", name, b, err, want)
			continue
		}
		back, err := c.decode(b)
		if err != nil || string(back) != "café €" && name != "utf-16" {
			t.Errorf("%s: decoded %q, %v", name, back, err)
		}
	}
	for name, msg := range map[string]string{
		"latin_1":    `'latin-1' codec can't encode character '\u20ac' in position 5: ordinal not in range(256)`,
		"ascii":      `'ascii' codec can't encode character '\u00e9' in position 3: ordinal not in range(128)`,
		"iso8859_15": `'charmap' codec can't encode character '\u201c' in position 7: character maps to <undefined>`,
	} {
		c, _ := codecFor(name)
		if _, err := c.encode([]byte("café € “q”")); err == nil || err.Error() != msg {
			t.Errorf("%s: %v, want %s", name, err, msg)
		}
	}
	if _, ok := codecFor("bogus"); ok {
		t.Error("bogus is a codec")
	}
}
