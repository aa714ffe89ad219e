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

require (
	github.com/grpc-ecosystem/grpc-gateway/v2 v2.32.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20261012220534-4341edf3f941 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261005182115-fad411399dd8 // indirect
	google.golang.org/grpc v1.84.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace (
	github.com/tmsproject/tms/pkg => ../pkg
	github.com/tmsproject/tms/proto/gen/go => ../proto/gen/go
	github.com/tmsproject/tms/services/catalog => ../services/catalog
	github.com/tmsproject/tms/services/changelog => ../services/changelog
	github.com/tmsproject/tms/services/notification => ../services/notification
	github.com/tmsproject/tms/services/translation => ../services/translation
)
