package facts

import (
	"errors"

	"github.com/tender-sh/tender/internal/pyini"
)

var (
	errIniParse       = errors.New("configparser.Error")
	errIniInterpolate = errors.New("configparser.InterpolationError")
)

// maxINIValue bounds an interpolated fact value, so that a fact file
// whose references multiply cannot grow without end.
const maxINIValue = 1 << 20

// parseINI reads text as Python's ConfigParser with its defaults does
// (Ansible reads a local fact that is not JSON so) and returns section →
// option → value, interpolated, DEFAULT's options in every section.
// errIniParse is a file ConfigParser would not read; errIniInterpolate
// one it reads but cannot interpolate.
func parseINI(text string) (map[string]any, error) {
	p := pyini.New(pyini.Options{MaxSize: maxINIValue})
	if err := p.Read(text); err != nil {
		return nil, errIniParse
	}
	out := map[string]any{}
	for _, name := range p.Sections() {
		keys, vals, err := p.Items(name)
		if err != nil {
			return nil, errIniInterpolate
		}
		sect := make(map[string]any, len(keys))
		for i, k := range keys {
			sect[k] = vals[i]
		}
		out[name] = sect
	}
	return out, nil
}
