# SPARQLWrapper + pandas: a SELECT into a DataFrame (values only, untyped),
# as a Python user would do it. Prints {"rows": n, "peakRss": bytes}.
import json, resource, sys
import pandas as pd
from SPARQLWrapper import JSON, SPARQLWrapper

endpoint, query = sys.argv[1], sys.argv[2]
client = SPARQLWrapper(endpoint)
client.setQuery(query)
client.setReturnFormat(JSON)
result = client.query().convert()
names = result["head"]["vars"]
frame = pd.DataFrame(
    [{n: b[n]["value"] for n in names if n in b} for b in result["results"]["bindings"]],
    columns=names,
)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"rows": len(frame), "peakRss": peak}))
