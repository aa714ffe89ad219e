package delivery

import (
	"time"

	"github.com/cenkalti/backoff/v5"
)

// retryDelay is how long after its latest failure a delivery that has
// failed attempts times before is tried again: first, doubling with each
// attempt up to 1024 times first, and 25% either side of that, so that
// the deliveries that failed together (a receiver or mail server that was
// down) do not all come back to it at the same moment.
func retryDelay(first time.Duration, attempts int) time.Duration {
	b := &backoff.ExponentialBackOff{InitialInterval: first, RandomizationFactor: 0.25, Multiplier: 2,
		MaxInterval: first << maxDoublings}
	b.Reset()
	var d time.Duration
	for range min(max(attempts, 0), maxDoublings) + 1 {
		d = b.NextBackOff()
	}
	return d
}

// maxDoublings bounds the delay: 5 s doubled 10 times is 85 minutes for
// a webhook, a minute doubled 10 times 17 hours for a mail.
const maxDoublings = 10
