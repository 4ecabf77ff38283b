// fairacq dashboard: draws a session's charts (Plotly), keeps pages current while anything on them can still
// change (polling every 2 s), and cancels jobs. The pages work without it; it only adds what needs a script.
(function () {
  "use strict";
  var POLL_MS = 2000;
  var PLOT_CONFIG = { responsive: true, displayModeBar: false, displaylogo: false };

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function request(url, options) {
    var init = Object.assign({ credentials: "same-origin", headers: { Accept: "application/json" } }, options || {});
    return fetch(url, init).then(function (response) {
      if (response.status === 401) { window.location.assign("/ui/login"); throw new Error("logged out"); }
      if (!response.ok) { throw new Error(url + " answered " + response.status); }
      return response.json();
    });
  }

  function say(text) {
    var live = document.getElementById("live");
    if (live) { live.textContent = text; }
  }

  function node(tag, attrs, children) {
    var element = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { element.textContent = attrs[name]; } else { element.setAttribute(name, attrs[name]); }
    });
    (children || []).forEach(function (child) { if (child) { element.appendChild(child); } });
    return element;
  }

  function when(iso) { return iso.slice(0, 19).replace("T", " ") + " UTC"; }
  function percent(fraction) { return Math.round((fraction || 0) * 100); }

  function setStatus(element, status) {
    element.className = "status status-" + status;
    element.textContent = status;
  }

  // -- a session page: facts, charts, status and progress -------------------------------------------------------

  function sessionPage(root) {
    var api = root.getAttribute("data-api");
    var revision = null;

    function drawFacts(facts) {
      var list = document.getElementById("facts");
      list.replaceChildren.apply(list, facts.map(function (fact) {
        return node("div", {}, [node("dt", { text: fact.label }), node("dd", { text: fact.value })]);
      }));
    }

    function drawCharts(charts) {
      Array.prototype.forEach.call(root.querySelectorAll(".plot[data-slot]"), function (plot) {
        var figure = charts[plot.getAttribute("data-slot")];
        if (!figure) { return; }
        var loading = plot.querySelector(".loading");
        if (loading) { loading.remove(); }
        window.Plotly.react(plot, figure.data, figure.layout, PLOT_CONFIG);
        plot.setAttribute("data-series", String(figure.data.length));
        plot.setAttribute("data-rendered", "true");
      });
    }

    function drawState(data) {
      var status = document.getElementById("session-status");
      if (status.textContent !== data.status) { say("Status: " + data.status); }
      setStatus(status, data.status);
      var progress = document.getElementById("session-progress");
      if (progress && data.progress !== null) { progress.value = percent(data.progress); }
      if (progress && data.status !== "queued" && data.status !== "running") { progress.remove(); }
      document.getElementById("log-total").textContent = data.log_total.toLocaleString("en");
    }

    function tick() {
      var url = api + (revision ? "?revision=" + encodeURIComponent(revision) : "");
      request(url).then(function (data) {
        drawState(data);
        if (data.changed) {
          drawFacts(data.facts);
          drawCharts(data.charts);
        }
        revision = data.revision;
        root.setAttribute("data-revision", revision);
        root.setAttribute("data-finished", data.finished ? "true" : "false");
        if (!data.finished) { window.setTimeout(tick, POLL_MS); }
      }).catch(function (error) {
        say("The page could not refresh: " + error.message);
        window.setTimeout(tick, POLL_MS * 3);
      });
    }

    tick();
  }

  // -- the home page: sessions and jobs, live ----------------------------------------------------------------------

  function sessionRow(row) {
    var link = node("a", { href: row.url, text: row.name || row.id.slice(0, 12) + "…" });
    return node("tr", { "data-id": row.id }, [
      node("th", { scope: "row" }, [link]), node("td", { "data-label": "Type", text: row.noun }),
      node("td", { "data-label": "Status" }, [node("span", { "class": "status status-" + row.status,
                                                             text: row.status })]),
      node("td", { "data-label": "Budget spent", text: row.spent }),
      node("td", { "data-label": "Last activity" }, [node("time", { datetime: row.updated_at,
                                                                    text: when(row.updated_at) })])]);
  }

  function jobRow(job) {
    var value = String(percent(job.progress));
    var bar = node("progress", { max: "100", value: value, "aria-label": "Progress of job " + job.kind,
                                 text: value + "%" });
    var link = job.session_url ? node("a", { href: job.session_url, text: "open" }) : document.createTextNode("—");
    var cancel = job.cancellable ? node("button", { type: "button", "class": "cancel", "data-job": job.id,
                                                   text: "Cancel" }) : null;
    return node("tr", { "data-id": job.id }, [
      node("th", { scope: "row", text: job.kind }),
      node("td", { "data-label": "Status" }, [node("span", { "class": "status status-" + job.status,
                                                             text: job.status })]),
      node("td", { "data-label": "Progress" }, [bar, node("span", { "class": "pct", text: value + "%" })]),
      node("td", { "data-label": "Session" }, [link]),
      node("td", { "data-label": "Created" }, [node("time", { datetime: job.created_at,
                                                              text: when(job.created_at) })]),
      node("td", { "data-label": "" }, [cancel])]);
  }

  function updateTable(table, rows, build, empty) {
    var body = table.tBodies[0];
    var shown = Array.prototype.map.call(body.querySelectorAll("tr[data-id]"), function (tr) {
      return tr.getAttribute("data-id");
    });
    var same = shown.length === rows.length && rows.every(function (row, i) { return row.id === shown[i]; });
    if (same) {
      rows.forEach(function (row, i) {
        var fresh = build(row);
        var old = body.rows[i];
        Array.prototype.forEach.call(fresh.cells, function (cell, k) {
          var focused = old.cells[k].contains(document.activeElement);
          if (!focused && old.cells[k].innerHTML !== cell.innerHTML) { old.cells[k].replaceWith(cell.cloneNode(true)); }
        });
      });
      return;
    }
    if (rows.length === 0) {
      var colspan = String(table.tHead.rows[0].cells.length);
      body.replaceChildren(node("tr", { "class": "empty" }, [node("td", { colspan: colspan, text: empty })]));
      return;
    }
    body.replaceChildren.apply(body, rows.map(build));
  }

  function homePage(root) {
    var url = root.getAttribute("data-poll-url");
    var timer = null;

    function schedule(ms) {
      window.clearTimeout(timer);
      timer = window.setTimeout(tick, ms);
    }

    function tick() {
      request(url).then(function (data) {
        updateTable(document.getElementById("sessions"), data.sessions, sessionRow, "No sessions.");
        updateTable(document.getElementById("jobs"), data.jobs, jobRow, "No jobs.");
        document.getElementById("sessions-count").textContent = "(" + data.sessions.length + ")";
        document.getElementById("jobs-count").textContent = "(" + data.jobs.length + ")";
        root.setAttribute("data-active", data.active ? "true" : "false");
        if (data.active) { schedule(POLL_MS); }
      }).catch(function (error) {
        say("The page could not refresh: " + error.message);
        schedule(POLL_MS * 3);
      });
    }

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button.cancel");
      if (!button) { return; }
      button.disabled = true;
      request("/ui/api/jobs/" + button.getAttribute("data-job") + "/cancel",
              { method: "POST", headers: { Accept: "application/json", "X-CSRF-Token": csrfToken() } })
        .then(function (job) { say("Job " + job.kind + " cancel requested"); schedule(0); })
        .catch(function (error) { button.disabled = false; say("Could not cancel: " + error.message); });
    });

    if (root.getAttribute("data-active") === "true") { schedule(POLL_MS); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var session = document.getElementById("session");
    if (session) { sessionPage(session); }
    var overview = document.getElementById("overview");
    if (overview) { homePage(overview); }
  });
}());
