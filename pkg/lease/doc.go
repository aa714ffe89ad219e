// Package lease hands out named leases that expire, held in a service's own
// database (ARCHITECTURE.md rule 12): work that one replica of a service
// must do at a time, such as following the change log or the repository
// work of one component, runs under a lease. The holder renews it while it
// works; when the holder dies the lease runs out and another replica takes
// it over. Expiry is wall-clock time written by the holder, so replicas'
// clocks must agree to well within a lease's length (NTP does).
//
// Claims on rows of a work table (deliveries, mail) use the same clock and
// the same idea in the owning service's store: a claim column with an expiry.
package lease
