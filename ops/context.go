package ops

import "fmt"

// orderInputs calls the backend's Order for every input of a kernel about
// to write out.
func orderInputs(op string, out *Tensor, ts []*Tensor, names []string) error {
	b := out.buf.st.backend
	for i, t := range ts {
		if err := b.Order(t.buf.st.storage, out.buf.st.storage); err != nil {
			return fmt.Errorf("ops.%s: ordering the kernel after the work that produced %s: %w", op, names[i], err)
		}
	}
	return nil
}
