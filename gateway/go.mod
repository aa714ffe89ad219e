module github.com/tmsproject/tms/gateway

go 1.26.0

require (
	github.com/tmsproject/tms/pkg v0.0.0
	github.com/tmsproject/tms/proto/gen/go v0.0.0
	github.com/tmsproject/tms/services/catalog v0.0.0
	github.com/tmsproject/tms/services/changelog v0.0.0
	github.com/tmsproject/tms/services/notification v0.0.0
	github.com/tmsproject/tms/services/translation v0.0.0
)

require github.com/grpc-ecosystem/grpc-gateway/v2 v2.32.0 // indirect

replace (
	github.com/tmsproject/tms/pkg => ../pkg
	github.com/tmsproject/tms/proto/gen/go => ../proto/gen/go
	github.com/tmsproject/tms/services/catalog => ../services/catalog
	github.com/tmsproject/tms/services/changelog => ../services/changelog
	github.com/tmsproject/tms/services/notification => ../services/notification
	github.com/tmsproject/tms/services/translation => ../services/translation
)
