package outbox

// FlushWaiting reports whether a caller of Flush is waiting for a round
// of its own to start.
func FlushWaiting(r *Relay) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.next != nil
}
