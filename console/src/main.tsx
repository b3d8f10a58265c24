import { render } from 'preact';
import { App } from './app';
import { takeTokenFromUrl } from './session';
import './styles.css';

takeTokenFromUrl();
render(<App />, document.getElementById('app')!);
