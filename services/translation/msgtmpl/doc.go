// Package msgtmpl renders the commit and merge message templates of a
// component: the subset of the Django template language that Weblate's
// default messages use. Variables `{{ a.b }}` with the filters default,
// lower, upper and title; `{% if [not] a.b %}…{% else %}…{% endif %}`;
// `{% for x in a.b %}…{% endfor %}`; and `{# comments #}`. Like Django, a
// missing variable renders empty, floats render as Python prints them
// (100.0) and nothing is HTML-escaped (Weblate renders with autoescape off).
package msgtmpl
