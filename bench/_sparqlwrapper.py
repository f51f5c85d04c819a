# SPARQLWrapper + pandas: a SELECT into a DataFrame (values only, untyped),
# as a Python user would do it. Arguments: endpoint, query, and the result
# format (json, the default, or xml). Prints {"rows": n, "peakRss": bytes}.
import json, resource, sys
import pandas as pd
from SPARQLWrapper import JSON, XML, SPARQLWrapper

endpoint, query = sys.argv[1], sys.argv[2]
form = sys.argv[3] if len(sys.argv) > 3 else "json"
client = SPARQLWrapper(endpoint)
client.setQuery(query)
client.setReturnFormat(XML if form == "xml" else JSON)
result = client.query().convert()
if form == "xml":
    # convert() gives an xml.dom.minidom document
    names = [v.getAttribute("name") for v in result.getElementsByTagName("variable")]
    rows = []
    for item in result.getElementsByTagName("result"):
        row = {}
        for binding in item.getElementsByTagName("binding"):
            row[binding.getAttribute("name")] = "".join(
                node.data for term in binding.childNodes if term.nodeType == term.ELEMENT_NODE
                for node in term.childNodes if node.nodeType == node.TEXT_NODE
            )
        rows.append(row)
else:
    names = result["head"]["vars"]
    rows = [{n: b[n]["value"] for n in names if n in b} for b in result["results"]["bindings"]]
frame = pd.DataFrame(rows, columns=names)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"rows": len(frame), "peakRss": peak}))
