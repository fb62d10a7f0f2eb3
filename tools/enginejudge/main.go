// Command enginejudge loads notifications ConfigMaps exactly as the Argo Rollouts and Argo CD controllers do at
// config load (notifications-engine pkg/api/factory.go: api.ParseConfig, the controller's InitGetVars, then
// api.NewAPI), with the notifications-engine version this binary is built with, and says for each one whether
// the engine accepts it and, when not, the engine's own error.
//
//	enginejudge < {"cases": [{"ref": "...", "engine": "argo-cd", "data": {...}}]}
//	enginejudge -schema     the option types of every service and the template fields (see schema.go)
//
// The Secret holds a value for every $key the ConfigMap references (a generated RSA key for keys that name a
// private key), as a cluster that works would: the judge is about the ConfigMap, not about a missing Secret.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/argoproj/notifications-engine/pkg/api"
	"github.com/argoproj/notifications-engine/pkg/services"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

type judgeCase struct {
	Ref    string            `json:"ref"`
	Engine string            `json:"engine"`
	Data   map[string]string `json:"data"`
}

type verdict struct {
	Ref   string `json:"ref"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// The modules whose versions decide the verdict, reported so that the caller can check the build.
var reportedModules = []string{"github.com/argoproj/notifications-engine", "github.com/expr-lang/expr", "github.com/antonmedv/expr", "github.com/Masterminds/sprig/v3", "github.com/Masterminds/sprig", "sigs.k8s.io/yaml", "k8s.io/apimachinery", "gopkg.in/yaml.v3"}

func main() {
	if len(optionTypes) == 0 {
		fmt.Fprintln(os.Stderr, "enginejudge: built without the tag of a services_<version>.go; build it with tools/enginejudge/judge.ts")
		os.Exit(2)
	}
	log.SetOutput(io.Discard) // the engine logs warnings (unknown keys, missing secret keys); the verdict is the error
	if len(os.Args) > 1 && os.Args[1] == "-schema" {
		var input struct {
			// Functions: template function names to look up in this engine (sprig v2 before 2023, v3 after).
			Functions []string `json:"functions"`
		}
		if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
			fmt.Fprintln(os.Stderr, "enginejudge -schema: cannot read the function names on stdin:", err)
			os.Exit(2)
		}
		writeJSON(map[string]any{"linked": linked(), "schema": engineSchema(input.Functions)})
		return
	}
	var input struct {
		Cases []judgeCase `json:"cases"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
		fmt.Fprintln(os.Stderr, "enginejudge: cannot read the cases on stdin:", err)
		os.Exit(2)
	}
	key := privateKey()
	results := make([]verdict, 0, len(input.Cases))
	for _, c := range input.Cases {
		err := load(c, key)
		v := verdict{Ref: c.Ref, OK: err == nil}
		if err != nil {
			v.Error = err.Error()
		}
		results = append(results, v)
	}
	writeJSON(map[string]any{"linked": linked(), "results": results})
}

// load is apiFactory.getApiFromConfigmapAndSecret: ParseConfig, InitGetVars, NewAPI. A panic is a refusal too
// (the controller would crash or skip the config).
func load(c judgeCase, key string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "notifications", Namespace: "judge"}, Data: c.Data}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "notifications", Namespace: "judge"}, Data: secretFor(c.Data, key)}
	cfg, err := api.ParseConfig(cm, secret)
	if err != nil {
		return err
	}
	getVars, err := initGetVars(c.Engine, cm)
	if err != nil {
		return err
	}
	_, err = api.NewAPI(*cfg, getVars)
	return err
}

// initGetVars is the controller's Settings.InitGetVars as far as it reads the ConfigMap: Argo CD
// (util/notification/settings) unmarshals the context key into map[string]string with sigs.k8s.io/yaml; Argo
// Rollouts (utils/record) reads nothing.
func initGetVars(engine string, cm *corev1.ConfigMap) (api.GetVars, error) {
	switch engine {
	case "argo-cd":
		context := map[string]string{}
		if text, ok := cm.Data["context"]; ok {
			if err := yaml.Unmarshal([]byte(text), &context); err != nil {
				return nil, err
			}
		}
	case "argo-rollouts":
	default:
		return nil, fmt.Errorf("unknown engine %q", engine)
	}
	return func(obj map[string]any, _ services.Destination) map[string]any { return obj }, nil
}

var secretReference = regexp.MustCompile(`[$][\w-]+`)

func secretFor(data map[string]string, key string) map[string][]byte {
	values := map[string][]byte{}
	for k, v := range data {
		if !strings.HasPrefix(k, "service.") {
			continue
		}
		for _, ref := range secretReference.FindAllString(v, -1) {
			name := ref[1:]
			if strings.Contains(strings.ToLower(name), "privatekey") || strings.Contains(strings.ToLower(name), "private-key") {
				values[name] = []byte(key)
			} else {
				values[name] = []byte("secret-" + name)
			}
		}
	}
	return values
}

func privateKey() string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
}

func linked() map[string]string {
	versions := map[string]string{}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return versions
	}
	for _, dep := range info.Deps {
		for _, module := range reportedModules {
			if dep.Path == module {
				versions[module] = dep.Version
			}
		}
	}
	return versions
}

func writeJSON(value any) {
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		fmt.Fprintln(os.Stderr, "enginejudge:", err)
		os.Exit(2)
	}
}
