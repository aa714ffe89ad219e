package delivery_test

import (
	"testing"

	"github.com/tmsproject/tms/services/notification/delivery"
)

// TestSignStandardWebhooksVector reproduces the test vector the Standard
// Webhooks specification's reference libraries check (secret, id,
// timestamp and body below, and the signature they compute), so a
// receiver's own library accepts what the service signs. A round trip
// through our own verifier would pass with the delimiter, the base64
// alphabet or the key's decoding wrong; this would not.
func TestSignStandardWebhooksVector(t *testing.T) {
	const (
		id   = "msg_p5jXN8AQM9LWM0D4loKWxJek"
		ts   = 1614265330
		body = `{"test": 2432232314}`
		want = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	)
	for _, tc := range []struct {
		name, secret, want string
		fails              bool
	}{
		{"with the whsec_ prefix", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", want, false},
		{"without it, as the reference libraries also take it", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", want, false},
		{"another secret", "whsec_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "", false},
		{"a secret that is not base64", "whsec_not base64!", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := delivery.Sign(tc.secret, id, ts, []byte(body))
			switch {
			case tc.fails:
				if err == nil {
					t.Errorf("Sign = %q, want an error", got)
				}
			case err != nil:
				t.Fatal(err)
			case tc.want != "" && got != tc.want:
				t.Errorf("Sign = %q, want %q", got, tc.want)
			case tc.want == "" && got == want:
				t.Errorf("another secret signs as the vector's: %q", got)
			}
		})
	}
}
