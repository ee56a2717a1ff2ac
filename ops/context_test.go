package ops

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// Ops called with a context allocate their output through the backend's
// Alloc with the context (the queue it names), and every kernel is ordered
// after its inputs' queues.
func TestCallUsesTheBackendsQueue(t *testing.T) {
	fakeCUDA.takeOrders()
	x, err := Full(1, Float64, 4)
	if err != nil {
		t.Fatal(err)
	}
	xd, err := x.To(context.Background(), CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), fakeQueueKey{}, "s1")
	y, err := AddScalar(ctx, xd, 2)
	if err != nil {
		t.Fatal(err)
	}
	if q := y.Storage().(*fakeStorage).queue; q != "s1" {
		t.Errorf("AddScalar(ctx)'s output is on queue %q, want s1", q)
	}
	z, err := AddScalar(context.Background(), y, 1) // default queue, reading y from s1
	if err != nil {
		t.Fatal(err)
	}
	if q := z.Storage().(*fakeStorage).queue; q != "" {
		t.Errorf("AddScalar(Background)'s output is on queue %q, want the default", q)
	}
	if got, want := fakeCUDA.takeOrders(), []string{"->s1", "s1->"}; !slices.Equal(got, want) {
		t.Errorf("Order calls = %q, want %q", got, want)
	}
	v, err := z.Float64s()
	if err != nil || v[0] != 4 {
		t.Errorf("z = %v, %v; want 4s", v, err)
	}
}

func TestCallErrors(t *testing.T) {
	x, err := Full(1, Float64, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Builtin.AddScalar.Call(nil, []*Tensor{x}, Args{Floats: []float64{1}}); !errors.Is(err, ErrArg) {
		t.Errorf("Call(nil) = %v, want ErrArg", err)
	}
	xd, err := x.To(context.Background(), CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), fakeQueueKey{}, "fail")
	if _, err := AddScalar(ctx, xd, 1); err == nil {
		t.Error("AddScalar with a failing allocation succeeded")
	}
	// A CPU tensor ignores the context.
	y, err := AddScalar(ctx, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := y.Float64s(); err != nil || v[0] != 2 {
		t.Errorf("AddScalar on the CPU = %v, %v; want 2s", v, err)
	}
}
