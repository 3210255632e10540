"""The page of `gpsfence run --web` in headless Chromium (Debian's chromium and chromium-driver,
selenium from PyPI), as a person on a phone and on a laptop sees it. Run by
Tests/EndToEndTests/WebPageTests.swift against a `run --web` fed by `simulate`.

    page_check.py URL SCREENSHOT_FOLDER [--ack] [--integrity STATE]

Checks, each failure printed and counted: the position moves; a fence named like an HTML tag is
shown as text (no element made from it, no alert); with --ack, the alarm banner appears and its
Acknowledge button answers it; with --integrity, the GNSS integrity number comes to say STATE (in
the alarm's colour for jammed and spoofed). Saves web-phone.png (360 px) and web-laptop.png (1280 px).
Prints "N passed, N failed" last; exits 1 when any failed.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

url, folder = sys.argv[1], sys.argv[2]
ack = "--ack" in sys.argv
integrity = sys.argv[sys.argv.index("--integrity") + 1] if "--integrity" in sys.argv else None
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what, flush=True)


def wait_for(condition, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.25)
    return None


options = Options()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.set_window_size(360, 800)
    driver.get(url)
    # No alarm sounds at the start: no banner.
    check(wait_for(lambda: driver.find_element(By.ID, "state").text.startswith("●"), 30), "the page has the status")
    live = driver.execute_script("return fetch('/api/live').then(r => r.json())")
    if live.get("alarm") in (None, "clear"):
        check(not driver.find_element(By.ID, "alarm").is_displayed(), "no alarm banner while no alarm sounds")
    fix = lambda: driver.execute_script("return fetch('/api/live').then(r => r.json())")
    # The page shows a speed once the first live state arrived.
    check(wait_for(lambda: driver.find_element(By.ID, "speed").text not in ("", "–"), 30), "the speed is shown")
    first = wait_for(lambda: fix()["fix"], 30)
    moved = wait_for(lambda: fix()["fix"]["lat"] != first["lat"] and fix(), 30)
    if not moved and integrity in ("jammed", "spoofed"):
        # Positions judged unreliable are not believed: on a page loaded after the judgement (a slow
        # machine) the last believed position rightly stands still.
        moved = driver.find_element(By.ID, "integrity").text.startswith(integrity)
    check(bool(first) and bool(moved), "the position moves")
    live_way = driver.execute_script("return document.body.dataset.live")
    check(live_way == "websocket", "the live updates come over the WebSocket: %r" % live_way)
    shown_state = driver.find_element(By.ID, "state").text
    check("monitoring" in shown_state, "the header says monitoring: %r" % shown_state)
    # The hostile fence name: fetched by the page, drawn as text; no element of it, no alert.
    check(len(driver.find_elements(By.CSS_SELECTOR, "img")) == 0, "no img element exists")
    try:
        alert = driver.switch_to.alert
        check(False, "an alert opened: %r" % alert.text)
    except Exception:
        check(True, "no alert")
    if integrity:
        number = lambda: driver.find_element(By.ID, "integrity")
        shown = wait_for(lambda: number().text.startswith(integrity) and number(), 90)
        check(bool(shown), "the integrity number says %s: %r" % (integrity, number().text))
        if shown and integrity in ("jammed", "spoofed"):
            check("unreliable" in (shown.get_attribute("class") or ""), "it is in the alarm's colour")
            driver.save_screenshot(folder + "/web-phone-integrity.png")
    if ack:
        banner = wait_for(lambda: driver.find_element(By.ID, "alarm").is_displayed() and
                          driver.find_element(By.ID, "alarm-title").text == "ALARM" and
                          driver.find_element(By.ID, "alarm-text").text and driver.find_element(By.ID, "alarm"), 90)
        check(bool(banner), "the alarm banner appears")
        if banner:
            driver.set_window_size(360, 800)
            driver.save_screenshot(folder + "/web-phone-alarm.png")
            driver.find_element(By.ID, "ack").click()
            answered = wait_for(lambda: "acknowledged" in driver.find_element(By.ID, "alarm-title").text.lower(), 30)
            check(bool(answered), "the banner says acknowledged after the button")
            events = wait_for(lambda: [e for e in driver.find_elements(By.CSS_SELECTOR, "#events li")
                                       if "alarm acknowledged" in e.text], 30)
            check(bool(events), "the events list shows the acknowledgement")
            if events:
                check("by web" in events[0].text, "the acknowledgement is by web: %r" % events[0].text)
    time.sleep(1.5)
    driver.save_screenshot(folder + "/web-phone.png")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 360, "nothing wider than a 360 px phone: %d" % width)
    driver.set_window_size(1280, 800)
    time.sleep(1.5)
    driver.save_screenshot(folder + "/web-laptop.png")
    driver.find_element(By.ID, "night").click()
    time.sleep(1)
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    check(background in ("rgb(0, 0, 0)",), "night mode is black: %r" % background)
    driver.save_screenshot(folder + "/web-night.png")
    logs = []
    try:
        logs = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    except Exception:
        pass
    check(not logs, "no errors in the browser's console: %s" % json.dumps(logs)[:500])
finally:
    driver.quit()
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
