package nccl

// Option changes how NewComms and NewComm create a communicator.
type Option func(*options)

type options struct {
	blocking bool
}

// Blocking creates a blocking communicator (ncclConfig_t.blocking = 1)
// instead of a non-blocking one. NCCL launches a non-blocking
// communicator's every call from a thread of its own, which costs tens of
// microseconds per call; a blocking one launches on the calling thread, as
// torch.distributed's communicators do, so small messages are faster. The
// price: a call that waits inside NCCL for a missing peer blocks the
// calling goroutine, and a context cannot end that wait: creating the
// communicator (until every rank has joined) and the first calls between
// two ranks (while NCCL connects them) are such calls. Contexts still abort
// a blocking communicator whose device work does not complete in time
// (Synchronize, and the calls' watch), as for a non-blocking one.
func Blocking() Option { return func(o *options) { o.blocking = true } }

func collect(opts []Option) options {
	var o options
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o
}
