module github.com/retrysim/retrysim/policies/sdkverify

go 1.26.8

require (
	github.com/google/go-github/v93 v93.0.0
	github.com/retrysim/retrysim v0.0.0
	github.com/slack-go/slack v0.36.0
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
	github.com/stripe/stripe-go/v85 v85.0.0
	github.com/twilio/twilio-go v1.31.0
)

require (
	github.com/golang/mock v1.6.0 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/jonboulle/clockwork v0.5.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace github.com/retrysim/retrysim => ../..
