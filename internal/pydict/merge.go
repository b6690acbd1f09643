package pydict

// MergeHash returns b merged into a as Ansible's merge_hash does for
// hash_behaviour=merge: a key both hold with a dict on each side is merged
// the same way, recursively; any other key of b replaces a's. Key order
// is a's, then b's new keys. Neither map is changed.
func MergeHash(a, b map[string]any) map[string]any {
	out := NewBuilder(len(a) + len(b))
	for _, k := range Keys(a) {
		out.Set(k, a[k])
	}
	for _, k := range Keys(b) {
		bv := b[k]
		if av, ok := out.Get(k); ok {
			am, aok := av.(map[string]any)
			bm, bok := bv.(map[string]any)
			if aok && bok {
				out.Set(k, MergeHash(am, bm))
				continue
			}
		}
		out.Set(k, bv)
	}
	return out.Map()
}
