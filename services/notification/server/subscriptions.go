package server

import (
	"context"
	"fmt"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/kinds"
	"github.com/tmsproject/tms/services/notification/store"
)

// invalidChoice is Django REST framework's ChoiceField message.
func invalidChoice(v any) string { return fmt.Sprintf("\"%v\" is not a valid choice.", v) }

// validateSubscription checks a subscription as it is about to be stored.
// Fields are named as in the REST resource (project, component).
func validateSubscription(s store.Subscription) error {
	var v errs.Violations
	switch {
	case s.Notification == "":
		v.Add("notification", "required", "This field is required.")
	case !kinds.Known(s.Notification):
		v.Add("notification", "invalid_choice", invalidChoice(s.Notification))
	}
	if !kinds.ValidScope(s.Scope) {
		v.Add("scope", "invalid_choice", invalidChoice(s.Scope))
	}
	if !kinds.ValidFrequency(s.Frequency) {
		v.Add("frequency", "invalid_choice", invalidChoice(s.Frequency))
	}
	// A project scope names its project; a component scope names its
	// component, which is known by project and component slug.
	if (s.Scope == kinds.ScopeProject || s.Scope == kinds.ScopeComponent) && s.ProjectSlug == "" {
		v.Add("project", "required", "This field is required.")
	}
	if s.Scope == kinds.ScopeComponent && s.ComponentSlug == "" {
		v.Add("component", "required", "This field is required.")
	}
	return v.Err()
}

func subscriptionOf(p *notificationv1.Subscription) store.Subscription {
	return store.Subscription{Username: p.GetUsername(), Notification: p.GetNotification(), Scope: p.GetScope(),
		Frequency: p.GetFrequency(), ProjectSlug: p.GetProjectSlug(), ComponentSlug: p.GetComponentSlug()}
}

// ListSubscriptions returns one page of an account's subscriptions in id
// order; limit 0 means all.
func (s *Server) ListSubscriptions(ctx context.Context, req *notificationv1.ListSubscriptionsRequest) (*notificationv1.ListSubscriptionsResponse, error) {
	if err := requireSelf(ctx, req.GetUsername()); err != nil {
		return nil, err
	}
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	subs, total, err := s.store.ListSubscriptions(ctx, req.GetUsername(), int(pg.Offset), int(pg.Limit))
	if err != nil {
		return nil, err
	}
	out := &notificationv1.ListSubscriptionsResponse{Total: total, NextPageToken: pg.Next(total),
		Subscriptions: make([]*notificationv1.Subscription, len(subs))}
	for i, sub := range subs {
		out.Subscriptions[i] = subscriptionProto(sub)
	}
	return out, nil
}

// GetSubscription returns one subscription of an account.
func (s *Server) GetSubscription(ctx context.Context, req *notificationv1.GetSubscriptionRequest) (*notificationv1.GetSubscriptionResponse, error) {
	if err := requireSelf(ctx, req.GetUsername()); err != nil {
		return nil, err
	}
	sub, err := s.store.GetSubscription(ctx, req.GetUsername(), req.GetId())
	if err != nil {
		return nil, err
	}
	return &notificationv1.GetSubscriptionResponse{Subscription: subscriptionProto(sub)}, nil
}

// CreateSubscription adds a subscription to the account named in it.
func (s *Server) CreateSubscription(ctx context.Context, req *notificationv1.CreateSubscriptionRequest) (*notificationv1.CreateSubscriptionResponse, error) {
	if err := requireSelf(ctx, req.GetSubscription().GetUsername()); err != nil {
		return nil, err
	}
	sub := subscriptionOf(req.GetSubscription())
	// An unknown account is NotFound before any field is judged.
	if _, err := s.store.UserByName(ctx, sub.Username); err != nil {
		return nil, err
	}
	if err := validateSubscription(sub); err != nil {
		return nil, err
	}
	created, err := s.store.CreateSubscription(ctx, sub)
	if err != nil {
		return nil, err
	}
	return &notificationv1.CreateSubscriptionResponse{Subscription: subscriptionProto(created)}, nil
}

// setters copy one named field from the request onto the stored
// subscription. The REST names project and component are accepted beside
// the message's field names.
var setters = map[string]func(dst *store.Subscription, src store.Subscription){
	"notification":   func(d *store.Subscription, s store.Subscription) { d.Notification = s.Notification },
	"scope":          func(d *store.Subscription, s store.Subscription) { d.Scope = s.Scope },
	"frequency":      func(d *store.Subscription, s store.Subscription) { d.Frequency = s.Frequency },
	"project_slug":   func(d *store.Subscription, s store.Subscription) { d.ProjectSlug = s.ProjectSlug },
	"project":        func(d *store.Subscription, s store.Subscription) { d.ProjectSlug = s.ProjectSlug },
	"component_slug": func(d *store.Subscription, s store.Subscription) { d.ComponentSlug = s.ComponentSlug },
	"component":      func(d *store.Subscription, s store.Subscription) { d.ComponentSlug = s.ComponentSlug },
}

// allFields is what an update without a field list replaces (PUT).
var allFields = []string{"notification", "scope", "frequency", "project_slug", "component_slug"}

// UpdateSubscription changes the listed fields (all of them when the list
// is empty) of one subscription of an account; the result is validated as
// a whole before it is saved.
func (s *Server) UpdateSubscription(ctx context.Context, req *notificationv1.UpdateSubscriptionRequest) (*notificationv1.UpdateSubscriptionResponse, error) {
	if err := requireSelf(ctx, req.GetSubscription().GetUsername()); err != nil {
		return nil, err
	}
	src := subscriptionOf(req.GetSubscription())
	fields := req.GetFields()
	if len(fields) == 0 {
		fields = allFields
	}
	for _, f := range fields {
		if setters[f] == nil {
			return nil, errs.Invalid("fields", "invalid", fmt.Sprintf("Unknown field %q.", f))
		}
	}
	updated, err := s.store.UpdateSubscription(ctx, src.Username, req.GetSubscription().GetId(), func(dst *store.Subscription) error {
		for _, f := range fields {
			setters[f](dst, src)
		}
		return validateSubscription(*dst)
	})
	if err != nil {
		return nil, err
	}
	return &notificationv1.UpdateSubscriptionResponse{Subscription: subscriptionProto(updated)}, nil
}

// DeleteSubscription removes one subscription of an account.
func (s *Server) DeleteSubscription(ctx context.Context, req *notificationv1.DeleteSubscriptionRequest) (*notificationv1.DeleteSubscriptionResponse, error) {
	if err := requireSelf(ctx, req.GetUsername()); err != nil {
		return nil, err
	}
	if err := s.store.DeleteSubscription(ctx, req.GetUsername(), req.GetId()); err != nil {
		return nil, err
	}
	return &notificationv1.DeleteSubscriptionResponse{}, nil
}
