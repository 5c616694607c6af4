// The examples menu: the classic traps, each with the type that shows it best.
// The data is examples.json (objects in YAML, patches as they would be passed to -p),
// which the Python tests read too.
import EXAMPLES from "./examples.json";

export { EXAMPLES };
