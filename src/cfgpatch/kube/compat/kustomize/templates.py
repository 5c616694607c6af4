"""kustomize's words that are a template: code -> words, the record's values in braces
(see :mod:`cfgpatch.kube.compat.kustomize`)."""

from __future__ import annotations

#: code -> kustomize's words.
TEMPLATES: dict[str, str] = {
    # the build (kustomize's KustTarget), around the problem within
    "accumulating-resources": "accumulating resources: {cause}",
    "accumulating-components": "accumulating components: {cause}",
    "resources-from": "accumulating resources from '{path}': {cause}",
    "resources-from-file": "accumulating resources from '{path}': {cause} in File: {path}",
    "merging-resources-from": "merging resources from '{path}': {cause}",
    "make-target": "couldn't make target for path '{path}': {cause}",
    "recursed-accumulation": "recursed accumulation of path '{path}': {cause}",
    "recursed-merging": "recursed merging from path '{path}': {cause}",
    "expected-component": "expected kind 'Component' for path '{path}' but got '{name}'",
    "unexpected-component": "expected kind != 'Component' for path '{path}'",
    "go-value": "{detail}: {cause}",
    # warnings (printed on standard error; the build goes on)
    "unused-vars": "well-defined vars that were never replaced: {detail}",
    "bad-replacement-type": "MakePrimitiveReplacer: bad replacement type={name} val={detail}",
    # the loader (kustomize's fileLoader)
    "illegal-load-restrictor": "illegal flag value --load-restrictor {name}; "
                               "legal values: [{detail}]",
    "not-a-valid-directory": "must build at directory: not a valid directory: {cause}",
    "not-a-directory": "must build at directory: '{path}': file is not directory",
    "no-such-path": "evalsymlink failure on '{path}' : lstat {detail}: "
                    "no such file or directory",
    "must-resolve-to-file": "'{path}' must resolve to a file",
    "file-outside-root": "security; file '{path}' is not in or below '{detail}'",
    "unreadable-file": "{name} {path}: {detail}",
    "empty-root": "new root cannot be empty",
    "cycle": "cycle detected: candidate root '{path}' contains visited root '{detail}'",
    "no-kustomization": "unable to find one of 'kustomization.yaml', 'kustomization.yml' or "
                        "'Kustomization' in directory '{path}'",
    "many-kustomizations": "Found multiple kustomization files under: {path}\n",
    # the kustomization file
    "invalid-kustomization": "invalid Kustomization: {cause}",
    "empty-kustomization": "kustomization.yaml is empty",
    "sort-order": "the field 'sortOptions.order' must be one of [fifo, legacy]",
    "legacy-sort-with-fifo": "the field 'sortOptions.legacySortOptions' is set but the "
                             "selected sort order is 'fifo', not 'legacy'",
    # resources
    "malformed-yaml": "MalformedYAMLError: {cause}",
    "missing-metadata": "missing Resource metadata",
    "missing-kind": "missing kind in object {detail}",
    "missing-name": "missing metadata.name in object {detail}",
    "already-registered": "may not add resource with an already registered id: {id}",
    # patches
    # patches
    "configuring-builtin": "trouble configuring builtin {name} with config: `\n{detail}`: "
                           "{cause}",
    "in-file": "{cause} in File: {path}",
    "patch-appears-empty": "patch appears to be empty; files=[{detail}], Patch=",
    "no-target-for-patch": "must specify a target for patch {detail}",
    "sm-and-json-patch": "illegally qualifies as both an SM and JSON patch: {detail}",
    "no-json-op": "empty file path and empty jsonOp",
    "no-patch-or-path": "must specify one of patch and path in\n{detail}",
    "path-and-json-op": "must specify a file path or jsonOp, not both",
    "patch-and-path": "patch and path can't be set at the same time\n{detail}",
    "patch-file": "failed to get the patch file from path({path}): {cause}",
    # generators
    "kv-env-files": "loading KV pairs: env source files: [{detail}]: {cause}",
    "kv-literal": "loading KV pairs: literal sources [{detail}]: invalid literal source "
                  "{name}, expected key=value",
    "kv-file-sources": "loading KV pairs: file sources: [{detail}]: {cause}",
    "generated-id-missing": "merging from generator: id {id} does not exist; "
                            "cannot merge or replace",
    "generated-id-many": "found multiple objects that could accept merge of {id}",
    "generated-id-exists": "merging from generator: id {id} exists; behavior must be merge "
                           "or replace",
    # replacements
    "path-and-inline-replacement": "cannot specify both path and inline replacement",
    "replacement-without-source-or-target": "replacements must specify a source and at "
                                            "least one target",
    "replacement-source-lookup": "error looking up replacement source: {cause}",
    "replacement-source-missing": "fieldPath `{field}` is missing for replacement source {id}",
    "delimiter-not-scalar": "delimiter option can only be used with scalar nodes",
    "index-out-of-bounds": "options.index {detail} is out of bounds for value {name}",
    "target-selects-nothing": "target must specify resources to select",
    # plugins given as configuration
    "loading-generator-plugins": "loading generator plugins: {cause}",
    "failed-to-load-generator": "loading generator plugins: failed to load generator: {cause}",
    "external-plugin": "external plugins disabled; unable to load external plugin '{name}'",
    "unknown-builtin": "unable to load builtin {id}",
    "not-a-generator": "plugin {id} not a generator",
    "not-a-transformer": "plugin {id} not a transformer",
    "plugin-configuration": "plugin {id} fails configuration: {cause}",
    "nil-field-specs": "fieldSpecs is not expected to be nil",
    "role-binding-subjects": 'invalid value "{name}" for setRoleBindingSubjects: must be one '
                             'of "defaultOnly", "none" or "allServiceAccounts"',
    # field paths (kyaml)
    "list-element-needs-match": "list path element must contain fieldName=fieldValue for "
                                "element to match",
    "wildcard-in-getter": "wildcard is not supported in PathGetter",
    "negative-index": "array index {detail} cannot be negative",
    # built-in plugins without a kustomization field
    "unsupported-cloud": "cloud provider {name} not supported yet",
    "no-targets": "must specify at least one target",
    "empty-field-path": "fieldPath cannot be empty",
    "negative-file-path-position": "value of FilePathPosition ({detail}) cannot be negative",
    # helm charts
    "helm-not-enabled": "must specify --enable-helm",
    "no-helm-command": "must specify --helm-command",
    "no-chart-name": "chart name cannot be empty",
    "additional-values-file": "could not load additionalValuesFile: {cause}",
    "values-merge": "valuesMerge must be one of [{detail}]",
    "no-chart-repo": "no repo specified for pull, no chart found at ''",
    "no-helm-version": "cannot find version string in {detail}",
    "helm-not-v3": "this plugin requires helm V3 but got v{detail}",
    # field specs, name references, vars
    "conflicting-field-specs": "conflicting fieldspecs",
    "obj-at-path": "obj at path '{field}': {cause}",
    "not-sequence-or-mapping": "expected sequence or mapping node",
    "updating-name-reference": "updating name reference in '{field}' field of '{id}': {cause}",
    "no-name-field": "path config error; no 'name' field in node",
    "many-referrals": "found multiple possible referrals: {detail}",
    "merging-vars": "merging vars {detail}: {cause}",
    "var-ambiguous": "found {detail} resId matches for var {name} (unable to disambiguate)",
    "var-repeated": "var '{name}' already encountered",
    "var-unmapped": "var '{name}' cannot be mapped to a field in the set of known resources",
    "var-field-missing": "field specified in var '{name}' not found in corresponding resource",
    "not-a-string": "invalid value type expect a string",
    # kustomize's own strategic merge
    "no-patch-strategy": "no implemented strategic merge patch strategy for '{name}' "
                         "('{detail}')",
    "unknown-patch-strategy": "unknown patch strategy '{name}'",
    # transformers
    "namespace-id-conflict": "namespace transformation produces ID conflict: [{detail}]",
    "merging-label-specs": "failed to merge {name}: {cause}",
    "not-a-mapping-node": "wrong node kind: expected MappingNode",
    "replicas-unmatched": "resource with name {name} does not match a config with the "
                          "following GVK [{detail}]",
    # selectors (Go's regexp and the labels parser)
    "regexp-perl-syntax": "error parsing regexp: invalid or unsupported Perl syntax: `{detail}`",
    "regexp-escape": "error parsing regexp: invalid escape sequence: `{detail}`",
    "regexp": "error parsing regexp: {name}: `{detail}`",
    "selector-requirement": "unable to parse requirement: {cause}",
    "selector-character": "unexpected character at {detail}",
    # CRDs and OpenAPI schemas
    "loading-crds": "loading CRDs [{detail}]: {cause}",
    "crd-definitions": "unable to parse open API definition from '{path}': {cause}",
    "builtin-and-custom-schema": "builtin version and custom schema provided, cannot use both",
    "unknown-openapi-version": "the specified OpenAPI version is not built in",
    "invalid-schema-file": "openapi: invalid schema file '{path}': {cause}",
    # transformer configurations
    "converting-yaml": "error converting YAML to JSON: {cause}",
    "unmarshaling-json": "error unmarshaling JSON: while decoding JSON: {cause}",
    "merging-field-specs": "failed to merge {name} fieldSpec: {cause}",
    "merging-config": "merging config (the configuration, which kustomize prints in full): "
                      "{cause}",
}
