from tests.web.conftest import Browser


def test_pages_answer(browser: Browser) -> None:
    assert browser.get("/").status_code == 200
    page = browser.get("/games/g")
    assert page.status_code == 200, page.text
    browser.sign_in("France")
    page = browser.get("/games/g/play")
    assert page.status_code == 200, page.text
    print(page.text[:3000])
